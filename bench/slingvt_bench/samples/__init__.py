"""What is sampled on the host and the server: /proc and jcmd figures, the host probe, the server's admission during an overload point."""
