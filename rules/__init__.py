"""paipu's rules layer: pure, vectorised domain logic on arrays and frames. Never imports ``pipeline``."""
