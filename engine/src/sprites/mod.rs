//! Sprites and text: `SpriteBatch` (`batch/`: recording, sorting, flushing into the frame's
//! sprite stream, text and cube sprites) and `SpriteFont` (`font.rs`: fonts rasterised from
//! TrueType or loaded from `.xnb`, measured and laid out as XNA does).
//!
//! Calls go down: a batch reads textures and fonts ([`crate::resources`]), an optional
//! pixel-stage effect ([`crate::effects`]), and records into the device's frame.

pub(crate) mod batch;
pub(crate) mod font;
