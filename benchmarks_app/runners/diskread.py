"""Sequential read of a large file that is not served from the page cache.

The file (``file_mib`` of random bytes, so a compressing filesystem cannot shrink it) is
written once to the scratch workdir and fsynced. Each repetition reads all of it in
``block_kib`` blocks, ``threads`` readers each over one contiguous segment, bypassing or
emptying the page cache first, by one of two methods (``extra.method`` records which ran):

- ``o_direct``: the file is opened with O_DIRECT and read into page-aligned buffers;
- ``fadvise``: the read goes through the page cache as usual, which the eviction below has
  emptied of the file.

Before each timed read, fsync then ``posix_fadvise(POSIX_FADV_DONTNEED)`` on the whole file
evict its pages (for both methods).

``method: "auto"`` tries O_DIRECT and falls back to fadvise where the filesystem refuses it.
Where it can, the runner checks the eviction with mincore(2) (``extra.resident_before_read``,
the fraction of the file's pages still cached just before a timed read: 0.0 is a cold read).
On tmpfs the file lives in memory and there is no disk: ``extra.warning`` says so.
"""

import itertools
import os

from benchmarks_app.runners._harness import Context, InvalidParams, Skipped, run
from common.messages import msg

CHUNK = 16 * 2**20


def estimate_bytes(params: dict, threads: int = 1) -> int:
    return int(threads * params["block_kib"] * 1024 + CHUNK + 100 * 2**20)


def estimate_disk_bytes(params: dict) -> int:
    return int(params["file_mib"] * 2**20)


def filesystem(path) -> str | None:
    """The type of the filesystem holding ``path``, from the longest matching mount point."""
    best, kind = "", None
    try:
        with open("/proc/mounts") as mounts:
            for line in mounts:
                fields = line.split()
                mount = fields[1]
                inside = str(path) == mount or str(path).startswith(mount.rstrip("/") + "/")
                if inside and len(mount) > len(best):
                    best, kind = mount, fields[2]
    except OSError:
        return None
    return kind


def resident_fraction(path) -> float | None:
    """Fraction of the file's pages in the page cache (mincore on a private mapping)."""
    import ctypes
    import mmap

    try:
        libc = ctypes.CDLL(None, use_errno=True)
        size = os.path.getsize(path)
        with open(path, "rb") as f, mmap.mmap(f.fileno(), size, access=mmap.ACCESS_COPY) as m:
            pages = (size + mmap.PAGESIZE - 1) // mmap.PAGESIZE
            vec = (ctypes.c_ubyte * pages)()
            addr = ctypes.addressof(ctypes.c_char.from_buffer(m))
            if libc.mincore(ctypes.c_void_p(addr), ctypes.c_size_t(size), vec) != 0:
                return None
            resident = sum(v & 1 for v in vec)
            del addr  # the buffer export must end before the mapping closes
        return resident / pages
    except (OSError, AttributeError, ValueError, BufferError):
        return None


class DiskreadBench:
    def __init__(self, ctx: Context) -> None:
        import numpy as np

        p = ctx.params
        self.block = int(p["block_kib"]) * 1024
        if self.block % 4096:
            raise InvalidParams(msg("benchmarks.runner_block_alignment"))
        self.size = int(p["file_mib"]) * 2**20 // self.block * self.block
        self.path = ctx.workdir / "diskread.bin"
        rng = np.random.default_rng(int(p.get("seed", 0)))
        fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            for offset in range(0, self.size, CHUNK):
                os.write(fd, rng.bytes(min(CHUNK, self.size - offset)))
            os.fsync(fd)
        finally:
            os.close(fd)
        self.threads = ctx.threads
        blocks = self.size // self.block
        edges = [blocks * i // self.threads * self.block for i in range(self.threads + 1)]
        self.segments = list(itertools.pairwise(edges))
        self.method = self._choose(p.get("method", "auto"))
        self.resident: list[float | None] = []
        fs = filesystem(ctx.workdir.resolve())
        self.extra = ctx.extra
        ctx.extra.update({"method": self.method, "file_bytes": self.size,
                          "block_bytes": self.block, "readers": self.threads,
                          "filesystem": fs})  # fmt: skip
        if fs == "tmpfs":
            ctx.extra["warning"] = "the workdir is on tmpfs: the file is in memory, not on disk"

    def _choose(self, method: str) -> str:
        if method not in ("auto", "o_direct", "fadvise"):
            raise InvalidParams(msg("benchmarks.runner_bad_read_method", value=repr(method)))
        if method == "fadvise":
            return method
        try:
            self._read_segment(0, self.block, direct=True)
            return "o_direct"
        except OSError as exc:
            if method == "o_direct":
                raise Skipped(msg("benchmarks.runner_no_direct_io", error=str(exc))) from exc
            return "fadvise"

    def _read_segment(self, start: int, end: int, *, direct: bool) -> int:
        import mmap

        flags = os.O_RDONLY | (os.O_DIRECT if direct else 0)
        fd = os.open(self.path, flags)
        buffer = mmap.mmap(-1, self.block)  # anonymous mappings are page aligned
        done = 0
        try:
            for offset in range(start, end, self.block):
                n = os.preadv(fd, [buffer], offset)
                if n <= 0:
                    break
                done += n
        finally:
            buffer.close()
            os.close(fd)
        return done

    def _evict(self) -> None:
        fd = os.open(self.path, os.O_RDONLY)
        try:
            os.fsync(fd)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)

    def measure(self) -> tuple[float, float]:
        import time
        from concurrent.futures import ThreadPoolExecutor

        direct = self.method == "o_direct"
        # O_DIRECT alone would bypass cached pages anyway; evicting first as well keeps the
        # mincore check meaningful for both methods.
        self._evict()
        self.resident.append(resident_fraction(self.path))
        start = time.perf_counter()
        with ThreadPoolExecutor(self.threads) as pool:
            done = sum(pool.map(lambda seg: self._read_segment(*seg, direct=direct),
                                self.segments))  # fmt: skip
        seconds = time.perf_counter() - start
        if done != self.size:
            raise RuntimeError(f"read {done} of {self.size} bytes")
        return done / seconds / 1e9, seconds

    def finish(self, result) -> None:
        known = [r for r in self.resident if r is not None]
        self.extra["resident_before_read"] = max(known) if known else None


def setup(ctx: Context) -> DiskreadBench:
    return DiskreadBench(ctx)


if __name__ == "__main__":
    run(setup)
