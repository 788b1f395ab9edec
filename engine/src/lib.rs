//! xnagraph.
