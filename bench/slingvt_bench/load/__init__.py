"""The load generators (wrk, oha) and one measured point."""
