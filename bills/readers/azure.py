"""Azure cost exports (Cost Management "actual" and "amortized"): EA, MCA and pay-as-you-go
column sets, camelCase names, a UTF-8 BOM, and localised headers such as the German
"Ressourcengruppe (ResourceGroup)" (the English name in brackets is read).

Actual and amortized differ in what `Cost` means. Actual: billed cost (a reservation's
purchase billed once); its effective cost is not in the file, so `cost` falls back to
billed and says so. Amortized: effective cost (the purchase spread over the usage it
covered); the billed cost of usage a commitment covered is zero, of other usage the cost.
Which view a file is comes from its name ("actual"/"amortized") or, failing that, its
rows (commitment usage with a cost: amortized; a commitment purchase: actual).
Pure: no Django."""

from __future__ import annotations

import re

import pyarrow as pa
import pyarrow.compute as pc

from bills.readers import columns as c
from bills.readers.quality import judged

KIND = "azure"
LABEL = "Azure"
DATE = ("date", "usagedatetime")
COST = ("costinbillingcurrency", "cost", "pretaxcost")
CURRENCY = ("billingcurrencycode", "billingcurrency", "currency")
ACCOUNT = ("subscriptionid", "subscriptionguid")
QUANTITY = ("quantity", "usagequantity")
SERVICE_CATEGORY = {
    "Virtual Machines": "Compute", "Virtual Machines Licenses": "Compute",
    "Container Instances": "Compute", "Azure App Service": "Compute", "Functions": "Compute",
    "Azure Kubernetes Service": "Compute", "Storage": "Storage", "Bandwidth": "Networking",
    "Virtual Network": "Networking", "Load Balancer": "Networking", "Networking": "Networking",
    "SQL Database": "Databases", "SQL Managed Instance": "Databases",
    "Azure Database for MySQL": "Databases", "Azure Cosmos DB": "Databases",
    "Log Analytics": "Management and Governance", "Azure Monitor": "Management and Governance",
    "Advanced Threat Protection": "Security", "Advanced Data Security": "Security",
}  # fmt: skip
CHARGE_CATEGORY = {
    "Usage": "Usage", "UnusedReservation": "Usage", "UnusedSavingsPlan": "Usage",
    "Purchase": "Purchase", "Refund": "Credit", "Tax": "Tax", "RoundingAdjustment": "Adjustment",
}  # fmt: skip
PRICING_CATEGORY = {
    "OnDemand": "Standard", "Reservation": "Committed", "SavingsPlan": "Committed",
    "Spot": "Dynamic",
}  # fmt: skip
COMMITMENT = pa.array(["Reservation", "SavingsPlan"])
UNUSED = pa.array(["UnusedReservation", "UnusedSavingsPlan"])


def key(name: str) -> str:
    """The English name a header gives, lower case: "Maßeinheit (UnitOfMeasure)" gives
    "unitofmeasure"."""
    inner = re.search(r"\(([A-Za-z0-9]+)\)\s*$", name)
    return (inner.group(1) if inner else name).strip().lstrip("\ufeff").lower()


def _first(names: dict[str, str], options: tuple[str, ...]) -> str | None:
    return next((names[o] for o in options if o in names), None)


def claims(header: list[str]) -> bool:
    names = {key(h) for h in header}
    return "metercategory" in names or ("consumedservice" in names and bool(names & set(COST)))


def missing(header: list[str]) -> list[str]:
    names = {key(h) for h in header}
    gone = []
    for label, options in (("Date", DATE), ("Cost", COST), ("BillingCurrency", CURRENCY)):
        if not names & set(options):
            gone.append(label + "|" + "|".join(options[1:]) if len(options) > 1 else label)
    return gone


def version(header: list[str]) -> str | None:
    """EA, MCA or pay-as-you-go, by the columns each carries."""
    names = {key(h) for h in header}
    if missing(header):
        return None
    if "pretaxcost" in names:
        return "payg"
    if (
        "billingprofileid" in names
        and "invoicesectionid" in names
        and "costinbillingcurrency" in names
    ):
        return "mca"
    return "ea"


WANTED = (
    DATE + COST + CURRENCY + ACCOUNT + QUANTITY
    + ("billingaccountid", "resourcelocation", "meterregion", "metercategory", "servicefamily",
       "metername", "meterid", "additionalinfo", "unitofmeasure", "paygcostinbillingcurrency",
       "paygprice", "chargetype", "pricingmodel", "unitprice", "tags")
)  # fmt: skip


def wanted(header: list[str]) -> list[str]:
    names = {}
    for h in header:
        names.setdefault(key(h), h)
    return [names[k] for k in WANTED if k in names]


def view_of(file: str, state: dict) -> str:
    lower = file.lower()
    if "amortiz" in lower or "amortis" in lower:
        return "amortized"
    if "actual" in lower:
        return "actual"
    if state.get("commitment_usage_cost"):
        return "amortized"
    return "actual"


def normalise(batch: pa.RecordBatch, file: str, first: int, state: dict) -> pa.Table:
    names = {}
    for h in batch.schema.names:
        names.setdefault(key(h), h)
    t = lambda *options: c.text(batch, _first(names, options))  # noqa: E731
    num = lambda *options: c.number(batch, _first(names, options), file, first)  # noqa: E731
    n = batch.num_rows
    cost = num(*COST)
    quantity = num(*QUANTITY)
    model = t("pricingmodel")
    charge = c.mapped(pc.fill_null(t("chargetype"), "Usage"), CHARGE_CATEGORY, default="Adjustment")
    pricing = c.mapped(pc.fill_null(model, "OnDemand"), PRICING_CATEGORY, default="Other")
    commitment = pc.fill_null(pc.is_in(model, value_set=COMMITMENT), False)
    covered = pc.and_(
        pc.and_(commitment, pc.equal(charge, "Usage")), pc.greater(pc.fill_null(cost, 0.0), 0)
    )
    if pc.any(covered).as_py():
        state["commitment_usage_cost"] = True
    kind = pc.fill_null(t("chargetype"), "Usage")
    unused = pc.fill_null(pc.is_in(kind, value_set=UNUSED), False)
    used = pc.and_(pc.and_(commitment, pc.equal(kind, "Usage")), pc.invert(unused))
    given = pc.case_when(pc.make_struct(unused, used), c.const(c.UNUSED, n), c.const(c.USED, n),
                         c.const(None, n))  # fmt: skip
    if state.get("view") == "amortized":
        effective = cost
        billed = pc.if_else(pc.and_(commitment, pc.equal(charge, "Usage")), 0.0, cost)
    else:
        billed = cost
        effective = pa.nulls(n, pa.float64())
    payg = num("paygcostinbillingcurrency")
    price = num("paygprice")
    from_price = pc.if_else(
        pc.greater(pc.fill_null(price, 0.0), 0), pc.multiply(price, quantity), None
    )
    listed = pc.coalesce(payg, from_price)
    # EA and MCA: UnitPrice is the negotiated (contracted) price; pay-as-you-go has none.
    unit_price = num("unitprice")
    contracted = pc.multiply(unit_price, pc.fill_null(quantity, 0.0))
    amortized = state.get("view") == "amortized"
    usage = pc.and_(pc.equal(charge, "Usage"), pc.invert(unused))
    info = pc.extract_regex(
        pc.fill_null(t("additionalinfo"), ""), r'"ServiceType"\s*:\s*"(?P<t>[^"]+)"'
    )
    instance = pc.struct_field(info, [0]) if n else pa.nulls(0, pa.string())
    category = pc.coalesce(
        c.mapped(t("metercategory"), SERVICE_CATEGORY, default="Other"), t("servicefamily")
    )
    return c.assemble(
        {
            "day": c.day(batch, _first(names, DATE), file, first),
            "provider": c.const("Microsoft", n),
            "billing_account": t("billingaccountid"),
            "account": t(*ACCOUNT),
            "region": pc.coalesce(t("resourcelocation"), t("meterregion")),
            "service_category": category,
            "service_name": t("metercategory"),
            "sku": pc.coalesce(t("metername"), t("meterid")),
            "instance_type": instance,
            "pricing_category": pricing,
            "charge_category": charge,
            "unit": t("unitofmeasure"),
            "currency": t(*CURRENCY),
            "commitment_status": given,
            "tags": c.tags(t("tags")),
            "billed": pc.fill_null(billed, 0.0),
            "effective": pc.fill_null(effective, 0.0),
            "list": pc.fill_null(listed, 0.0),
            "quantity": pc.fill_null(quantity, 0.0),
            "contracted": contracted,
            "eligible": pc.if_else(usage, pc.fill_null(listed, 0.0), 0.0),
            # The unused commitment's cost: in the amortized view, its rows' cost.
            "unused": pc.if_else(
                pc.and_(unused, pa.scalar(amortized)), pc.fill_null(cost, 0.0), 0.0
            ),
            **judged(billed, effective, listed, charge, pricing, c.const(None, n), quantity),
            "line": pa.array(range(first, first + n), pa.int64()),
        }
    )
