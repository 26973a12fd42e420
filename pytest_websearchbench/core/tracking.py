"""Query parameters that never make another page (DESIGN § 2.2, one page = one normalised URL): click-tracking,
share and session ids. `core.urls.normalize_url` drops them; every other query parameter stays.

Sources, written down as they give them:

- ClearURLs' rules (https://github.com/ClearURLs/Rules, ``data.min.json``, provider ``globalRules``,
  its ``rules`` list as of 2024): patterns matched against a whole parameter name, case-insensitively,
  each optionally preceded by an escaped ``?`` (``%3F``), as the add-on does. Left out: the provider's
  ``referralMarketing`` (``ref``, ``referrer``: the add-on leaves them on unless asked, and ``ref`` names a
  branch or a version on code hosts) and its per-site ``exceptions`` (one rule for every host, so a page's
  key never depends on a list of sites);
- ClearURLs' broad patterns (`BROAD_RULES`: ``utm`` bare, ``[a-z]?mc``, ``spm``, ``__s``) are names sites also
  use for content (``?utm=33N`` a UTM grid zone, ``?mc=`` on billiger.de, which ClearURLs itself excepts,
  ``?pmc=`` or ``?spm=`` a site's own id): each applies only on the domains ClearURLs' own per-site providers
  name for it (`SITE_RULES`); ``utm_*`` keeps applying everywhere through the card's names;
- the card's own names (DESIGN § 2.2) that ClearURLs keeps in per-site providers or not at all:
  Google's ``gbraid``, ``wbraid`` and ``srsltid``, HubSpot's ``_hsmi``, Instagram's ``igshid``, and
  ``utm_*`` with any suffix;
- share and session ids (`SHARE_AND_SESSION`), each from its vendor's documentation: Instagram's share id
  ``igsh`` (the successor of ``igshid``), Adobe Advertising's ``s_kwcid``, HubSpot ads' ``hsa_*`` (``hsa_acc``,
  ``hsa_cam``, ``hsa_grp``, ``hsa_ad``, …), the Java Servlet specification's URL-rewriting session id
  ``jsessionid`` (also a ``;jsessionid=`` path parameter: `core.urls`), PHP's default session name
  ``PHPSESSID``; two-letter and three-letter ones only where their site uses them (`SITE_RULES`): ``si``
  (YouTube's and Spotify's share id), ``trk`` (LinkedIn, named by ClearURLs' LinkedIn provider); ``sid`` is a
  session id when its value is one (`is_session_value`: 32 hexadecimal digits, phpBB's and PHP's md5 session
  hash), else it may be a story's or a series' id and stays.

Parameter names are facts; the patterns are kept as the list spells them, so a later version of the list
can be compared line by line.
"""

from __future__ import annotations

import re
from functools import lru_cache

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

#: ClearURLs' global patterns that match names sites use for content: applied on `SITE_RULES`' domains only
BROAD_RULES: frozenset[str] = frozenset({r"utm(?:_[a-z_]*)?", r"[a-z]?mc", r"spm", r"__s"})

#: the card's names (DESIGN § 2.2) beyond ClearURLs' global rules
CARD_PARAMETERS: tuple[str, ...] = (r"utm_.*", r"gbraid", r"wbraid", r"srsltid", r"_hsmi", r"igshid")

#: share and session ids whose names no site uses for content (module docstring, with their sources)
SHARE_AND_SESSION: tuple[str, ...] = (r"igsh", r"s_kwcid", r"hsa_[a-z_]+", r"jsessionid", r"phpsessid")

#: (domain, patterns): names dropped on that domain and its subdomains only. ``spm`` is named by ClearURLs'
#: taobao.com provider; ``[a-z]?mc``, ``__s`` and bare ``utm`` by none (its one site for ``mc``, billiger.de,
#: is an exception where the name is content), so they apply nowhere. ``si`` and ``trk`` are the share ids
#: of the sites listed (ClearURLs' spotify.com and LinkedIn providers; YouTube's share links).
SITE_RULES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("taobao.com", (r"spm",)),
    ("spotify.com", (r"si",)),
    ("youtube.com", (r"si",)),
    ("youtu.be", (r"si",)),
    ("linkedin.com", (r"trk",)),
)


def _compiled(patterns: tuple[str, ...]) -> re.Pattern[str]:
    return re.compile(r"(?:%3F)?(?:" + "|".join(patterns) + r")", re.IGNORECASE | re.DOTALL)


_GLOBAL_PATTERNS = tuple(rule for rule in CLEARURLS_GLOBAL_RULES if rule not in BROAD_RULES)
_TRACKING = _compiled(_GLOBAL_PATTERNS + CARD_PARAMETERS + SHARE_AND_SESSION)
_SESSION_NAME = re.compile(r"sid", re.IGNORECASE)
_SESSION_VALUE = re.compile(r"[0-9A-Fa-f]{32}")


@lru_cache(maxsize=4096)
def _site_tracking(host: str) -> re.Pattern[str] | None:
    """The site rules that apply on `host` (a lower-case host without ``www.``), compiled; None if none."""
    patterns = tuple(
        pattern for domain, names in SITE_RULES if host == domain or host.endswith("." + domain) for pattern in names
    )
    return _compiled(patterns) if patterns else None


def is_tracking_name(name: str, host: str = "") -> bool:
    """Whether a query parameter's name (escapes as the URL spells them) never makes another page: everywhere,
    or on `host` (lower case, without ``www.``) by `SITE_RULES`."""
    if _TRACKING.fullmatch(name) is not None:
        return True
    site = _site_tracking(host) if host else None
    return site is not None and site.fullmatch(name) is not None


def is_session_value(name: str, value: str) -> bool:
    """Whether ``name=value`` is a ``sid`` carrying a session hash (32 hexadecimal digits), not a content id."""
    return _SESSION_NAME.fullmatch(name) is not None and _SESSION_VALUE.fullmatch(value) is not None
