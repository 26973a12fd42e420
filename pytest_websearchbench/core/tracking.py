"""Click-tracking query parameters: the names that never make another page (DESIGN § 2.2, one page = one
normalised URL). `core.urls.normalize_url` drops them; every other query parameter stays.

Two sources, written down as they give them:

- ClearURLs' rules (https://github.com/ClearURLs/Rules, ``data.min.json``, provider ``globalRules``,
  its ``rules`` list as of 2024): patterns matched against a whole parameter name, case-insensitively,
  each optionally preceded by an escaped ``?`` (``%3F``), as the add-on does. Left out: the provider's
  ``referralMarketing`` (``ref``, ``referrer``: the add-on leaves them on unless asked, and ``ref`` names a
  branch or a version on code hosts) and its per-site ``exceptions`` (one rule for every host, so a page's
  key never depends on a list of sites);
- the card's own names (DESIGN § 2.2) that ClearURLs keeps in per-site providers or not at all:
  Google's ``gbraid``, ``wbraid`` and ``srsltid``, HubSpot's ``_hsmi``, Instagram's ``igshid``, and
  ``utm_*`` with any suffix.

Parameter names are facts; the patterns are kept as the list spells them, so a later version of the list
can be compared line by line.
"""

from __future__ import annotations

import re

#: ClearURLs ``globalRules.rules`` (without the ``(?:%3F)?`` prefix, added once below)
CLEARURLS_GLOBAL_RULES: tuple[str, ...] = (
    r"utm(?:_[a-z_]*)?",
    r"ga_[a-z_]+",
    r"yclid",
    r"_openstat",
    r"fb_action_(?:types|ids)",
    r"fb_(?:source|ref)",
    r"fbclid",
    r"action_(?:object|type|ref)_map",
    r"gs_l",
    r"mkt_tok",
    r"hmb_(?:campaign|medium|source)",
    r"gclid",
    r"otm_[a-z_]*",
    r"cmpid",
    r"os_ehash",
    r"_ga",
    r"_gl",
    r"__twitter_impression",
    r"wt_?z?mc",
    r"wtrid",
    r"[a-z]?mc",
    r"dclid",
    r"Echobox",
    r"spm",
    r"vn(?:_[a-z]*)+",
    r"tracking_source",
    r"ceneo_spo",
    r"itm_(?:campaign|medium|source)",
    r"__hsfp",
    r"__hssc",
    r"__hstc",
    r"_hsenc",
    r"__s",
    r"hsCtaTracking",
    r"mc_(?:eid|cid|tc)",
    r"ml_subscriber",
    r"ml_subscriber_hash",
    r"msclkid",
    r"oly_anon_id",
    r"oly_enc_id",
    r"rb_clickid",
    r"s_cid",
    r"vero_conv",
    r"vero_id",
    r"wickedid",
    r"twclid",
)

#: the card's names (DESIGN § 2.2) beyond ClearURLs' global rules
CARD_PARAMETERS: tuple[str, ...] = (r"utm_.*", r"gbraid", r"wbraid", r"srsltid", r"_hsmi", r"igshid")

_TRACKING = re.compile(
    r"(?:%3F)?(?:" + "|".join(CLEARURLS_GLOBAL_RULES + CARD_PARAMETERS) + r")", re.IGNORECASE | re.DOTALL
)


def is_tracking_name(name: str) -> bool:
    """Whether a query parameter's name (escapes as the URL spells them) is a click-tracking one."""
    return _TRACKING.fullmatch(name) is not None
