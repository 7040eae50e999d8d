"""The one exception hierarchy of graphmem.

Every error graphmem raises derives from :class:`GraphmemError`; the message always says what the
caller should change. HTTP status codes are chosen in ``api/errors.py`` only.
"""

from __future__ import annotations


class GraphmemError(Exception):
    """Root of every error graphmem raises."""

    code: str = "graphmem_error"


class InvalidInputError(GraphmemError):
    """The caller passed a value graphmem cannot accept (bad field, empty text, bad filter)."""

    code = "invalid_input"


class TextTooLongError(InvalidInputError):
    """A memory text is longer than the configured limit (``GRAPHMEM_MAX_TEXT_BYTES``)."""

    code = "text_too_long"


class NotFoundError(GraphmemError):
    """No memory (or other node) has the given id."""

    code = "not_found"


class DatabaseUnavailableError(GraphmemError):
    """Neo4j cannot be reached or refused the credentials."""

    code = "neo4j_unavailable"


class DatabaseBusyError(DatabaseUnavailableError):
    """Neo4j kept refusing a transaction as transient (deadlocks under contention) after retries."""

    code = "neo4j_busy"


class StoreError(GraphmemError):
    """Neo4j refused a statement of graphmem's own for a reason no retry fixes (a bug to report)."""

    code = "store_error"


class QueryCatalogError(GraphmemError):
    """A Cypher file is missing, malformed, or was called with the wrong parameters."""

    code = "query_catalog"


class SchemaError(GraphmemError):
    """The graph schema could not be applied, or it does not fit the configured embedder."""

    code = "schema"


class EmbeddingError(GraphmemError):
    """The embedding model could not be loaded or failed to embed."""

    code = "embedding"


class EmbeddingModelMismatchError(SchemaError):
    """The graph was written with another embedding model (name or dimension) than the one configured."""

    code = "embedding_model_mismatch"


class RuntimeSetupError(GraphmemError):
    """The managed local Neo4j could not be installed, started or stopped."""

    code = "runtime"


class JavaNotFoundError(RuntimeSetupError):
    """No usable Java 17+ was found for the managed Neo4j."""

    code = "java_not_found"


class MavenNotFoundError(RuntimeSetupError):
    """Maven (``mvn``) is needed to fetch the Neo4j jars and was not found."""

    code = "maven_not_found"


class PortInUseError(RuntimeSetupError):
    """A port the managed Neo4j needs is taken by another program."""

    code = "port_in_use"


class ServerStartError(RuntimeSetupError):
    """The managed Neo4j did not come up; the message carries the tail of its log."""

    code = "server_start_failed"


class LLMError(GraphmemError):
    """A language-model call failed (after retries) or returned output that does not fit its schema.

    Callers fall back to the deterministic path; nothing is lost.
    """

    code = "llm_error"


class LLMUnavailableError(LLMError):
    """No language model is configured (GRAPHMEM_LLM=none, or no ANTHROPIC_API_KEY)."""

    code = "llm_unavailable"


class WriteQueueFullError(GraphmemError):
    """The background write queue is full (or shut down); retry later or write synchronously."""

    code = "write_queue_full"


class JobLockLostError(GraphmemError):
    """A consolidation job's lock expired and another process took it; this run stopped.

    The next run resumes the work (the job's watermark only moves when a run succeeds).
    """

    code = "job_lock_lost"


class JobBusyError(GraphmemError):
    """Every consolidation job asked for is running in another process right now; retry when it finishes."""

    code = "job_busy"


class ForbiddenQueryError(GraphmemError):
    """An agent's Cypher could write, escape its scopes, or calls a procedure outside the allow-list."""

    code = "forbidden_query"


class InvalidQueryError(InvalidInputError):
    """An agent's Cypher does not parse, or Neo4j refused it while running (a type error, a bad value)."""

    code = "invalid_query"


class QueryTimeoutError(GraphmemError):
    """An agent's read query ran longer than its time limit and was stopped."""

    code = "query_timeout"


class AuthenticationError(GraphmemError):
    """The REST API refused the API key: it is missing or not one of ``GRAPHMEM_API_KEYS`` (HTTP 401)."""

    code = "unauthorized"


class APIError(GraphmemError):
    """The REST API answered with an error no more specific exception describes.

    ``status`` is the HTTP status and ``code`` the server's error code (``http_error`` when the
    answer was not graphmem's JSON error, e.g. a proxy's page).
    """

    code = "api_error"

    def __init__(self, message: str, *, status: int, code: str | None = None) -> None:
        super().__init__(message)
        self.status = status
        if code is not None:
            self.code = code


class APIUnreachableError(GraphmemError):
    """The REST API could not be reached, or did not answer in time, after the client's retries."""

    code = "api_unreachable"


class ScopeForbiddenError(GraphmemError):
    """The caller's API key is bound to scopes and the request writes (or runs) outside them."""

    code = "scope_forbidden"
