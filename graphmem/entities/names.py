"""Names of entities as graphmem compares and stores them: the normalised key an entity is merged
on, and the graphiti ``group_id`` a scope maps to. Pure functions.
"""

from __future__ import annotations

import hashlib
import re

from graphmem.scopes import ROOT

_POSSESSIVE = re.compile(r"'s(?=\s|$)|(?<=s)'(?=\s|$)")
_NOT_NAME = re.compile(r"[^\w+#]+")
_LEADING_ARTICLE = re.compile(r"^the\s+")
_GRAPHITI_UNSAFE = re.compile(r"[^A-Za-z0-9-]")
_LOSSLESS_SCOPE = re.compile(r"^(?:/[A-Za-z0-9-]+)+$")
ROOT_GROUP_ID = "root"


def entity_key(name: str) -> str:
    """The key entities are merged on: case-folded, possessive and punctuation stripped, spaces collapsed.

    ``"Alice's"``, ``"alice"`` and ``" ALICE "`` share the key ``alice``; ``"The Beatles"`` and
    ``"Beatles"`` share ``beatles``. Empty when the name holds no letter or digit.
    """
    text = name.casefold().replace("\u2019", "'").replace("`", "'")
    text = _POSSESSIVE.sub("", text.strip())
    text = _NOT_NAME.sub(" ", text).replace("_", " ")
    text = " ".join(text.split())
    return _LEADING_ARTICLE.sub("", text)


def group_id_for_scope(scope: str) -> str:
    """The graphiti ``group_id`` of a graphmem scope, in the characters graphiti accepts (``[A-Za-z0-9_-]``).

    ``/user/alice`` becomes ``user_alice``; the root scope ``/`` becomes ``root``. A scope the
    plain mapping would not keep apart from another (one holding ``_``, ``.``, ``@``, ``:``, ``+``
    or non-ASCII letters, or ``/root`` itself) gets 8 hex digits of its SHA-256 appended, so two
    scopes never share a group.
    """
    if scope == ROOT:
        return ROOT_GROUP_ID
    slug = _GRAPHITI_UNSAFE.sub("_", scope.strip("/"))
    if _LOSSLESS_SCOPE.match(scope) and slug != ROOT_GROUP_ID:
        return slug
    digest = hashlib.sha256(scope.encode("utf-8")).hexdigest()[:8]
    return f"{slug}_{digest}"
