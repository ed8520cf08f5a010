"""The full-screen Textual front end."""
