"""The small in-memory catalog frame the engine tests share, and the field-notes tiers
(docs/design.md, "The field-notes case").

The columns of `catalog.pricing.catalog_frame`, built from plain rows, no database.
"""

import datetime as dt
from decimal import Decimal

import pandas as pd

AS_OF = dt.date(2026, 2, 1)
DAY = dt.date(2026, 1, 19)
AWS = "aws/karpenter-provider-aws pkg/providers/pricing/zz_generated.pricing_aws.go"
INMOTION = "vendor's published tier as quoted by users; verify and date before relying on it"


def tier(slug, amount, unit="month", *, name=None, kind="dedicated", model="fixed_monthly",
         vcpus=None, ram=None, gpus=0, managed=None, setup="0", min_term=None, confirmed=True,
         source=AWS, currency="USD", price_id=None):  # fmt: skip
    amount = Decimal(str(amount))
    monthly = amount * 730 if unit == "hour" else amount
    return {
        "slug": slug, "name": name or slug, "provider": slug.split("-")[0], "kind": kind,
        "pricing_model": model, "region": "", "vcpus": vcpus, "cores": None, "cpu_model": "",
        "ram_gib": ram, "gpus": gpus, "gpu_model": "", "gpu_mem_gib": None, "managed": managed,
        "min_term_months": min_term, "price_id": price_id or abs(hash(slug)) % 10_000,
        "amount": amount, "unit": unit, "effective_from": DAY, "source": source,
        "source_url": "", "confirmed": confirmed, "stale": False, "currency": currency,
        "monthly": float(monthly.quantize(Decimal("0.01"))), "monthly_exact": monthly,
        "setup_fee": float(setup), "setup_fee_exact": Decimal(setup),
        "per_vcpu_hour": float(monthly / 730 / vcpus) if vcpus else float("nan"),
        "per_gib_hour": float("nan"),
        "per_gpu_hour": float(amount / gpus) if gpus else float("nan"),
    }  # fmt: skip


def frame(*rows) -> pd.DataFrame:
    out = pd.DataFrame(list(rows))
    for column in ("vcpus", "cores", "gpus", "min_term_months"):
        out[column] = out[column].astype("Int64")
    out["ram_gib"] = out["ram_gib"].astype("float64")
    out["managed"] = out["managed"].astype("boolean")
    out.attrs["dropped"] = []
    return out


EXTREME = tier("inmotion-extreme", "349.99", name="Extreme Dedicated", vcpus=32, ram=192,
               managed=True, confirmed=False, source=INMOTION)  # fmt: skip
ADVANCED = tier("inmotion-advanced", "149.99", name="Advanced Dedicated", managed=True,
                confirmed=False, source=INMOTION)  # fmt: skip
ESSENTIAL = tier("inmotion-essential", "99.99", name="Essential Dedicated", managed=True,
                 confirmed=False, source=INMOTION)  # fmt: skip
C5_2X = tier("aws-c5.2xlarge-us-east-1-on-demand", "0.34", "hour", kind="cloud_vm",
             model="on_demand", vcpus=8, ram=16)  # fmt: skip
C5_4X_SPOT = tier("aws-c5.4xlarge-us-east-1-spot", "150", kind="cloud_vm", model="spot",
                  vcpus=16, ram=32, confirmed=False, source="quoted by users")  # fmt: skip
R5_4X = tier("aws-r5.4xlarge-us-east-1-on-demand", "1.008", "hour", kind="cloud_vm",
             model="on_demand", vcpus=16, ram=128)  # fmt: skip
