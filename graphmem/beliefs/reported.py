"""Speech reported in quotes, read as its speaker's own statement.

'Hoang said, "I left Grab, I'm at Shopee these days."' is Hoang's statement, his "I" his; the
belief check reads the quote with Hoang as its speaker.
"""

from __future__ import annotations

import re

from graphmem.beliefs.statements import Statement, read_statement

# Name (said|told us|wrote|...)[,:] "quote"  - the quote is the whole rest of the text
_REPORTED = re.compile(
    r"""^\s*(?P<who>[A-Z][\w'-]+(?:\s[A-Z][\w'-]+)?)\s+
    (?:said|says|told\s+(?:us|me|him|her|them|everyone)|tells\s+(?:us|me)|wrote|writes|texted|
    messaged|emailed|posted|replied|announced|mentioned|added|explained|confirmed)\s*[,:]?\s*
    ["\u201c](?P<quote>[^"\u201d]+)["\u201d]\s*[.!]?\s*$""",
    re.VERBOSE,
)


def reported(statement: Statement) -> Statement:
    """The quoted statement with its speaker when ``statement`` reports what someone said, else
    ``statement`` itself."""
    match = _REPORTED.match(statement.body)
    if match is None:
        return statement
    return read_statement(match.group("quote").strip(), match.group("who"))
