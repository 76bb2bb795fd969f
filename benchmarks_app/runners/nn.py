"""Small neural net on CPU: a PyTorch MLP trained on synthetic tabular data.

PyTorch is an optional extra (``requirements-nn.txt``): where ``torch`` is missing the
harness writes a "skipped" result (exit 3), never a number. ``torch.set_num_threads(k)``
plus the OpenMP/MKL environment fix the intra-op threads; inter-op parallelism is 1, as the
MLP is one chain of operations.

Metric: training samples per second over one epoch (forward, backward, Adam step per
mini-batch), so a team's training of S samples x E epochs takes S·E / X(k) seconds.
"""

import contextlib
import itertools

from benchmarks_app.runners._harness import Context, run


def parameters(features: int, hidden: list[int], classes: int = 2) -> int:
    sizes = [features, *hidden, classes]
    return sum(a * b + b for a, b in itertools.pairwise(sizes))


def estimate_bytes(params: dict, threads: int = 1) -> int:
    data = params["samples"] * params["features"] * 4 * 2
    weights = parameters(params["features"], params["hidden"]) * 4 * 4  # + grads, Adam moments
    activations = params["batch_size"] * sum(params["hidden"]) * 4 * 3
    return int(data + weights + activations + 500 * 2**20)


class NnBench:
    def __init__(self, ctx: Context) -> None:
        import torch

        from benchmarks_app.runners._data import classification

        p = ctx.params
        torch.set_num_threads(ctx.threads)
        # Raises once a parallel region ran; the intra-op threads above still hold then.
        with contextlib.suppress(RuntimeError):
            torch.set_num_interop_threads(1)
        torch.manual_seed(int(p.get("seed", 0)))
        X, y = classification(int(p["samples"]), int(p["features"]), int(p.get("seed", 0)))
        self.torch = torch
        self.X = torch.from_numpy(X)
        self.y = torch.from_numpy(y).long()
        hidden = [int(h) for h in p["hidden"]]
        layers: list = []
        width = int(p["features"])
        for h in hidden:
            layers += [torch.nn.Linear(width, h), torch.nn.ReLU()]
            width = h
        layers.append(torch.nn.Linear(width, 2))
        self.model = torch.nn.Sequential(*layers)
        self.optimizer = torch.optim.Adam(self.model.parameters(), lr=1e-3)
        self.loss = torch.nn.CrossEntropyLoss()
        self.batch = int(p["batch_size"])
        self.epochs = int(p.get("epochs", 1))
        n_params = sum(t.numel() for t in self.model.parameters())
        ctx.extra.update({
            "batch_size": self.batch, "parameters": n_params, "hidden": hidden,
            "samples": len(self.X), "features": int(p["features"]), "epochs": self.epochs,
            "torch_version": torch.__version__, "torch_threads": torch.get_num_threads(),
            "torch_interop_threads": torch.get_num_interop_threads(),
            "mkldnn": torch.backends.mkldnn.is_available(),
            "torch_cuda_build": torch.version.cuda,  # PyPI's Linux wheel: a CUDA build
        })  # fmt: skip

    def measure(self) -> tuple[float, float]:
        import time

        start = time.perf_counter()
        self.model.train()
        for _ in range(self.epochs):
            for i in range(0, len(self.X), self.batch):
                self.optimizer.zero_grad(set_to_none=True)
                out = self.model(self.X[i : i + self.batch])
                self.loss(out, self.y[i : i + self.batch]).backward()
                self.optimizer.step()
        seconds = time.perf_counter() - start
        return len(self.X) * self.epochs / seconds, seconds


def setup(ctx: Context) -> NnBench:
    return NnBench(ctx)


if __name__ == "__main__":
    run(setup)
