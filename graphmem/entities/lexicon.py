"""What the offline entity extractor knows about English capitalisation: words that are capitalised
without naming anything (sentence openers, pronouns, days, months), and product names that are
recognised whatever their spelling in the text.

Pure data; the lists are the deterministic fallback's knowledge, not a dictionary of English.
"""

from __future__ import annotations

from graphmem.entities.names import entity_key


def _words(*lines: str) -> frozenset[str]:
    """The set of the space-separated words of ``lines``."""
    return frozenset(" ".join(lines).split())


PRONOUNS = _words(
    "i i'm i've i'd i'll me my mine myself we we're we've we'd we'll us our ours ourselves you you're "
    "you've you'd you'll your yours yourself he he's he'd he'll him his himself she she's she'd she'll "
    "her hers herself it it's its itself they they're they've they'd they'll them their theirs "
    "themselves one someone somebody everyone everybody anyone anybody nobody noone",
)

TIME_WORDS = _words(
    "monday tuesday wednesday thursday friday saturday sunday mon tue tues wed thu thur thurs fri sat sun "
    "january february march april may june july august september october november december jan feb mar "
    "apr jun jul aug sep sept oct nov dec today tomorrow yesterday tonight morning afternoon evening "
    "night week weekend month year spring summer autumn fall winter christmas easter",
)

# Words that open sentences (or stand capitalised in titles) without naming anything.
COMMON_OPENERS = _words(
    "a an the this that these those there here then than so and or but nor yet also too very just "
    "if when while where whereas why how what which who whom whose whatever whenever wherever however "
    "because since as though although unless until after before during once now later soon still "
    "maybe perhaps probably actually basically really honestly anyway anyhow besides finally first "
    "firstly second secondly third next last lastly then meanwhile otherwise instead indeed overall "
    "oh ah ha hey hi hello yes yeah yep no nope ok okay well sure thanks thank please sorry great "
    "cool nice wow good bad wait look listen let let's lets remember note fyi btw "
    "is are was were be been being am do does did done has have had having will would can could "
    "should shall may might must need needs get got go going went gone make made take took keep kept "
    "in on at by for with from to of into onto over under about above below between through across "
    "around against among without within along behind beyond near off out up down "
    "all any some every each both either neither many much more most few several other another such "
    "no not never always often sometimes usually ever again already almost only even "
    "my our your his her their its mine "
    "decision decisions reason reasons plan plans idea ideas update updates todo note notes question "
    "answer summary agenda action actions follow item items step steps option options "
    "new old big small same different important quick happy sad glad "
    "call ask tell send check add buy book schedule move ping email try use find pick bring meet visit "
    "read write start stop finish review fix create remind set cancel help show give put run pay order "
    "spent bought loved liked started finished moved met saw heard thought felt tried told asked",
)

# Capitalised acronyms that are ordinary words of business writing rather than names.
GENERIC_ACRONYMS = _words(
    "ok am pm fyi asap eta faq api apis url urls pr prs ceo cto cfo coo vp hr qa ui ux id ids tv pc "
    "etc eod eow tbd tba rsvp diy aka btw imo imho lol omg ai ml it us uk eu",
)

TITLES = _words("mr mrs ms dr prof sir st")
PERSON_TITLES = TITLES - {"st"}

# Connectors allowed inside a multi-word name: "Bank of America", "Vincent van Gogh".
NAME_CONNECTORS = _words("of de del della da di van von der den la le du &")

# Products and technologies with their canonical spelling, matched case-insensitively.
KNOWN_PRODUCTS: dict[str, str] = {
    name.lower(): name
    for name in _words(
        "PostgreSQL Postgres MySQL MariaDB SQLite MongoDB Redis Cassandra DynamoDB Elasticsearch "
        "OpenSearch Neo4j Kafka RabbitMQ Snowflake BigQuery Redshift ClickHouse Supabase Firebase "
        "Kubernetes Docker Terraform Ansible Jenkins GitHub GitLab Bitbucket Vercel Netlify Heroku "
        "AWS GCP Azure Cloudflare Linux Ubuntu Debian Windows macOS iOS Android "
        "Python JavaScript TypeScript Rust Golang Java Kotlin Swift Scala Haskell Elixir Ruby PHP "
        "React Vue Angular Svelte Django Flask FastAPI Rails Node.js Next.js Deno GraphQL gRPC "
        "PyTorch TensorFlow Pandas NumPy Spark Airflow dbt Tableau Looker "
        "Slack Jira Confluence Notion Figma Trello Asana Zoom Salesforce HubSpot Stripe Shopify "
        "OpenAI Anthropic Claude ChatGPT Gemini Llama Graphiti LangChain",
    )
}

# Known names that are also everyday words ("rust", "slack", "spring"): recognised only when the
# text capitalises them. The other known names are recognised in any case ("postgres", "mysql").
EVERYDAY_WORDS = _words(
    "rust swift spring spark ruby rails react vue angular notion zoom slack windows claude gemini "
    "llama pandas flask looker jenkins stripe docker azure java scala elixir deno spark asana",
)

# Other spellings of known names, mapped to the canonical one.
PRODUCT_ALIASES: dict[str, str] = {
    "postgres": "PostgreSQL",
    "postgresql": "PostgreSQL",
    "k8s": "Kubernetes",
    "golang": "Go",
    "nodejs": "Node.js",
    "node.js": "Node.js",
    "mongo": "MongoDB",
}

# What known products are alternatives to one another: choosing MySQL after PostgreSQL replaces it,
# choosing React after PostgreSQL does not. Keys are lower-case canonical names.
_CATEGORIES: dict[str, str] = {
    "database": "postgresql mysql mariadb sqlite mongodb cassandra dynamodb neo4j supabase firebase "
    "snowflake bigquery redshift clickhouse",
    "cloud": "aws gcp azure vercel netlify heroku cloudflare",
    "language": "python javascript typescript rust go golang java kotlin swift scala haskell elixir ruby php",
    "frontend": "react vue angular svelte next.js",
    "backend": "django flask fastapi rails node.js deno",
    "messaging": "kafka rabbitmq redis",
    "search": "elasticsearch opensearch",
    "ci": "jenkins github gitlab bitbucket",
    "tracker": "jira trello asana notion linear",
    "chat": "slack",
    "llm": "openai anthropic claude chatgpt gemini llama",
    "orchestration": "kubernetes",
}
PRODUCT_CATEGORIES: dict[str, frozenset[str]] = {}
"""Categories by :func:`~graphmem.entities.names.entity_key` of the product's name."""
for _category, _names in _CATEGORIES.items():
    for _name in _names.split():
        _key = entity_key(_name)
        PRODUCT_CATEGORIES[_key] = PRODUCT_CATEGORIES.get(_key, frozenset()) | {_category}
