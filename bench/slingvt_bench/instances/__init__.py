"""Sling instances: start, readiness, verification, stop; the PostgreSQL store and the network delay."""
