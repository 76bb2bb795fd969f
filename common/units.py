"""The product's units that every app shares (docs/design.md, "Units")."""

# Hourly to monthly at 730 hours, as AWS's and Azure's price calculators do (8,760 / 12).
# An int, so it multiplies exact Decimals and floats alike without converting them.
HOURS_PER_MONTH = 730
