"""The memory graph for analysis: a networkx graph of a scope, and files for Gephi or Cytoscape."""
