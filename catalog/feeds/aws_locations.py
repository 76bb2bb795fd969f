"""AWS Region codes by the `location` name the EC2 price list gives them.

Files before 2021 have no `regionCode` attribute (docs/formats.md §1): a product's region is
its `location` ("US East (N. Virginia)"), as AWS's price list names it. From the Price
List's `location` values and AWS's "Regions and Zones" documentation
(https://docs.aws.amazon.com/global-infrastructure/latest/regions/aws-regions.html),
checked 2026-12. A name not here is not guessed: its products' region stays unknown and a
file whose kept products are all of unknown location is refused for any region.
"""

from __future__ import annotations

import re

REGION_BY_LOCATION: dict[str, str] = {
    "US East (N. Virginia)": "us-east-1", "US East (Ohio)": "us-east-2",
    "US West (N. California)": "us-west-1", "US West (Oregon)": "us-west-2",
    "Africa (Cape Town)": "af-south-1", "Asia Pacific (Hong Kong)": "ap-east-1",
    "Asia Pacific (Mumbai)": "ap-south-1", "Asia Pacific (Hyderabad)": "ap-south-2",
    "Asia Pacific (Singapore)": "ap-southeast-1", "Asia Pacific (Sydney)": "ap-southeast-2",
    "Asia Pacific (Jakarta)": "ap-southeast-3", "Asia Pacific (Melbourne)": "ap-southeast-4",
    "Asia Pacific (Malaysia)": "ap-southeast-5", "Asia Pacific (Thailand)": "ap-southeast-7",
    "Asia Pacific (Tokyo)": "ap-northeast-1", "Asia Pacific (Seoul)": "ap-northeast-2",
    "Asia Pacific (Osaka)": "ap-northeast-3", "Asia Pacific (Osaka-Local)": "ap-northeast-3",
    "Asia Pacific (Taipei)": "ap-east-2", "Canada (Central)": "ca-central-1",
    "Canada West (Calgary)": "ca-west-1", "EU (Frankfurt)": "eu-central-1",
    "EU (Zurich)": "eu-central-2", "EU (Ireland)": "eu-west-1", "EU (London)": "eu-west-2",
    "EU (Paris)": "eu-west-3", "EU (Milan)": "eu-south-1", "EU (Spain)": "eu-south-2",
    "EU (Stockholm)": "eu-north-1", "Israel (Tel Aviv)": "il-central-1",
    "Middle East (Bahrain)": "me-south-1", "Middle East (UAE)": "me-central-1",
    "Mexico (Central)": "mx-central-1", "South America (Sao Paulo)": "sa-east-1",
    "AWS GovCloud (US)": "us-gov-west-1", "AWS GovCloud (US-West)": "us-gov-west-1",
    "AWS GovCloud (US-East)": "us-gov-east-1", "China (Beijing)": "cn-north-1",
    "China (Ningxia)": "cn-northwest-1",
}  # fmt: skip

# A Region's code: "us-east-1", "us-gov-west-1". A Local Zone ("us-east-1-bos-1") or a
# Wavelength Zone ("us-east-1-wl1-bos-wlz-1") is the code of its parent Region and more.
REGION_CODE = re.compile(r"^[a-z]{2}(?:-gov)?-[a-z]+-\d$")
ZONE_TYPES = ("AWS Local Zone", "AWS Wavelength Zone")


def is_zone(code: str) -> bool:
    """Whether `code` names a Local or Wavelength Zone (a Region's code and more)."""
    return not REGION_CODE.match(code) and bool(re.match(r"^[a-z]{2}(?:-gov)?-[a-z]+-\d-", code))
