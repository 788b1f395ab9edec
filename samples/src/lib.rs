//! Programs that use only xnagraph's public API. The library part holds what more than one
//! program or test shares: the [`breakout`] game.

pub mod breakout;
