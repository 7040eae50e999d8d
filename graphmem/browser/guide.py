"""The Neo4j Browser guide: HTML slides that apply the style, set the parameters and offer each view.

Browser plays it with ``:play <url>`` (the host must be in the server's
``browser.remote_content_hostname_whitelist``). A click on a ``<pre class="runnable">`` block
copies its text into Browser's editor.
"""

from __future__ import annotations

from html import escape

from graphmem.browser.views import BrowserView
from graphmem.scopes import normalize_scope

DEFAULT_LIMIT = 100

# (label or edge, colour, meaning): the legend on the first slide, matching style.grass.
_LEGEND: tuple[tuple[str, str, str], ...] = (
    ("EpisodicMemory", "#4C8EDA", "what happened or was said (caption: text)"),
    ("SemanticMemory", "#2E9E6A", "a fact distilled from episodes"),
    ("SchemaMemory", "#8E5CC9", "a pattern distilled from facts"),
    ("Entity", "#F79767", "a person, place or thing (caption: name)"),
    ("Decision", "#FFC454", "a decision from the ledger (caption: text)"),
    ("SUPERSEDES", "#5B6270", "the newer belief replaced the older one"),
    ("CONTRADICTS", "#E0393E", "the two conflict"),
    ("DERIVED_FROM", "#8E5CC9", "distilled from"),
)


def params_command(scope: str | None, limit: int = DEFAULT_LIMIT) -> str:
    """The ``:params`` command (without the colon) that sets every view's parameters.

    Raises:
        InvalidInputError: ``scope`` is not a scope path.
    """
    # normalize_scope admits no quotes or backslashes, so the value sits safely in a literal.
    return f"params {{scope: '{normalize_scope(scope)}', limit: {int(limit)}, id: null}}"


def render_guide(
    views: list[BrowserView], style_url: str, scope: str | None, limit: int = DEFAULT_LIMIT
) -> str:
    """The guide as HTML: a start slide, one slide per view, a slide of tips.

    Raises:
        InvalidInputError: ``scope`` is not a scope path.
    """
    slides = [_start_slide(style_url, params_command(scope, limit))]
    slides += [_view_slide(view) for view in views]
    slides.append(_tips_slide())
    body = "\n".join(slides)
    return (
        f'<article class="guide">\n<carousel class="deck container-fluid">\n{body}\n</carousel>\n</article>\n'
    )


def _start_slide(style_url: str, params: str) -> str:
    legend = "".join(
        f'<li><span style="display:inline-block;width:12px;height:12px;border-radius:6px;'
        f'background:{colour};margin-right:6px"></span><b>{escape(name)}</b>: {escape(meaning)}</li>'
        for name, colour, meaning in _LEGEND
    )
    # Runnable blocks rather than exec-topic links: a link's output would replace this guide.
    return (
        '<slide class="row-fluid">\n<div class="col-sm-12">\n'
        "<h3>graphmem: an agent's memory as a graph</h3>\n"
        "<p>Memories, entities and decisions are nodes; beliefs that replace or contradict each "
        "other, and facts distilled from episodes, are edges. Click a block to copy it into the "
        "editor, then run it (Ctrl+Enter).</p>\n"
        "<p>1. Apply the graphmem style:</p>\n"
        f'<pre class="runnable" data-step="style">:style {escape(style_url)}</pre>\n'
        "<p>2. Set the views' parameters (change <code>scope</code> to a user's path, <code>id</code> "
        "to one schema memory's id):</p>\n"
        f'<pre class="runnable" data-step="params">:{escape(params)}</pre>\n'
        f"<ul>{legend}</ul>\n"
        "<p>Then go to the next slide for the first view.</p>\n"
        "</div>\n</slide>"
    )


def _view_slide(view: BrowserView) -> str:
    params = ", ".join(f"<code>${escape(p)}</code>" for p in view.parameters)
    return (
        '<slide class="row-fluid">\n<div class="col-sm-12">\n'
        f"<h3>{escape(view.title)}</h3>\n"
        f"<p>{escape(view.doc)}</p>\n"
        f"<p>Parameters: {params}. Click the query to copy it into the editor, then run it.</p>\n"
        f'<pre class="runnable" data-view="{escape(view.name)}">{escape(view.cypher)}</pre>\n'
        "</div>\n</slide>"
    )


def _tips_slide() -> str:
    return (
        '<slide class="row-fluid">\n<div class="col-sm-12">\n'
        "<h3>Tips</h3>\n<ul>\n"
        "<li>Double-click a node to see its neighbours; click it for all its properties "
        "(<code>status</code>, <code>strength</code>, <code>scope</code>...).</li>\n"
        "<li>Browser shortens long captions: the full text is in the node's properties.</li>\n"
        "<li>Superseded memories keep their place in the graph: follow <code>SUPERSEDES</code> from "
        "the belief that replaced them.</li>\n"
        "<li><code>:params</code> shows the current parameters.</li>\n"
        "</ul>\n</div>\n</slide>"
    )
