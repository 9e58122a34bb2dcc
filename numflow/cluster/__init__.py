"""Clusters whose tasks run in separate processes and on separate machines (see ``cluster.server``).

``python -m numflow.cluster --ps 2 --workers 3 script.py args...`` runs a whole job on one
machine or on an existing Ray cluster (``numflow.cluster.launch``).
"""
