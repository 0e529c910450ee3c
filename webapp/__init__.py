"""Kostka's web app: Panel views over the rules engine."""
