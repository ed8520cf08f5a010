"""Widgets of the main screen: the board and the sidebar."""
