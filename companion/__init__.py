"""camel-companion: scores a real Camel Up table from its camera, buttons and phones."""
