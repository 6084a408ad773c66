"""Hokm (حکم): rules engine, bots, online tables and web client."""

__version__ = "0.1.0"
