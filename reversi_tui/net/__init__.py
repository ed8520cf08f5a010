"""Online play on one host: the protocol, the server, its store and the client."""
