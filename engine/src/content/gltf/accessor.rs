//! Accessors read with every byte range checked.
//!
//! In: an accessor's index and what it is for. Out: its elements as `f32` components (integer
//! components normalized where the accessor says so, per glTF's rules) or as `u32` values,
//! or a `ContentLoad` error naming the accessor and its use. The type and component type are
//! checked against the use (positions are float `VEC3`, indices unsigned scalars, ...); an
//! accessor without a buffer view reads as zeros, as glTF specifies; a sparse one is
//! `NotSupported`.

use gltf::accessor::{DataType, Dimensions};

use super::File;
use crate::error::{Result, XnaError};

/// What a use of an accessor accepts.
pub struct Expect {
    /// The allowed element types.
    pub dimensions: &'static [Dimensions],
    /// The allowed component types.
    pub types: &'static [DataType],
    /// Whether integer components must be normalized (colours, weights, texture coordinates)
    /// or must not be (indices, joints); `None`: float only.
    pub normalized: Option<bool>,
}

/// An accessor read: its element width and components, element by element.
pub struct Read<T> {
    pub width: usize,
    pub values: Vec<T>,
}

impl<T: Copy> Read<T> {
    /// The elements' count.
    pub fn count(&self) -> usize {
        self.values.len().checked_div(self.width).unwrap_or(0)
    }

    /// Element `i`'s components.
    pub fn get(&self, i: usize) -> &[T] {
        &self.values[i * self.width..][..self.width]
    }
}

fn width(d: Dimensions) -> usize {
    match d {
        Dimensions::Scalar => 1,
        Dimensions::Vec2 => 2,
        Dimensions::Vec3 => 3,
        Dimensions::Vec4 | Dimensions::Mat2 => 4,
        Dimensions::Mat3 => 9,
        Dimensions::Mat4 => 16,
    }
}

fn size(t: DataType) -> usize {
    match t {
        DataType::I8 | DataType::U8 => 1,
        DataType::I16 | DataType::U16 => 2,
        DataType::U32 | DataType::F32 => 4,
    }
}

impl File<'_> {
    /// Accessor `index`'s components as `f32`, checked against `expect`; `what` names the use.
    pub fn floats(&self, index: usize, what: &str, expect: &Expect) -> Result<Read<f32>> {
        let (accessor, bytes) = self.raw(index, what, expect)?;
        let t = accessor.data_type();
        let normalized = accessor.normalized();
        let values = bytes
            .chunks_exact(size(t))
            .map(|c| {
                let v = component(c, t);
                match (normalized, t) {
                    (true, DataType::I8) => (v / 127.0).max(-1.0),
                    (true, DataType::U8) => v / 255.0,
                    (true, DataType::I16) => (v / 32767.0).max(-1.0),
                    (true, DataType::U16) => v / 65535.0,
                    _ => v,
                }
            })
            .map(|v| v as f32)
            .collect();
        Ok(Read { width: width(accessor.dimensions()), values })
    }

    /// Accessor `index`'s unsigned integer components, checked against `expect`.
    pub fn integers(&self, index: usize, what: &str, expect: &Expect) -> Result<Read<u32>> {
        let (accessor, bytes) = self.raw(index, what, expect)?;
        let t = accessor.data_type();
        let values = bytes.chunks_exact(size(t)).map(|c| component(c, t) as u32).collect();
        Ok(Read { width: width(accessor.dimensions()), values })
    }

    /// A `ContentLoad` error about accessor `index` used as `what`.
    pub fn accessor_error(
        &self,
        index: usize,
        what: &str,
        message: impl std::fmt::Display,
    ) -> XnaError {
        self.error(format!("accessor {index} ({what}) {message}"))
    }

    /// The accessor's elements packed tightly (the view's stride removed).
    fn raw(
        &self,
        index: usize,
        what: &str,
        expect: &Expect,
    ) -> Result<(gltf::Accessor<'_>, Vec<u8>)> {
        let fail = |message: String| self.accessor_error(index, what, message);
        let accessor = self
            .document
            .accessors()
            .nth(index)
            .ok_or_else(|| fail("does not exist".to_owned()))?;
        let (d, t) = (accessor.dimensions(), accessor.data_type());
        if !expect.dimensions.contains(&d) || !expect.types.contains(&t) {
            return Err(fail(format!("is {d:?} of {t:?}, which this use cannot read")));
        }
        if t != DataType::F32 {
            match expect.normalized {
                Some(n) if n == accessor.normalized() => {}
                Some(n) => {
                    let is = if n { "is not" } else { "is" };
                    return Err(fail(format!("{is} normalized, which this use needs otherwise")));
                }
                None => return Err(fail(format!("is {t:?}, where floats are needed"))),
            }
        }
        if accessor.sparse().is_some() {
            return Err(XnaError::not_supported(format!(
                "{}: accessor {index} ({what}) is sparse, which xnagraph does not read.",
                self.asset
            )));
        }
        let element = width(d) * size(t);
        let count = accessor.count();
        let Some(view) = accessor.view() else {
            return Ok((accessor, vec![0; element * count]));
        };
        let stride = view.stride().unwrap_or(element);
        if stride < element {
            return Err(fail(format!(
                "has elements of {element} bytes, but its view's stride is {stride}"
            )));
        }
        let buffer = &self.buffers[view.buffer().index()];
        let view_bytes = view
            .offset()
            .checked_add(view.length())
            .and_then(|end| buffer.get(view.offset()..end))
            .ok_or_else(|| {
                fail(format!(
                    "reads buffer view {}, whose bytes {}..+{} lie past buffer {} ({} bytes)",
                    view.index(),
                    view.offset(),
                    view.length(),
                    view.buffer().index(),
                    buffer.len()
                ))
            })?;
        let needed = match count {
            0 => Some(0),
            n => stride
                .checked_mul(n - 1)
                .and_then(|s| s.checked_add(element))
                .and_then(|s| s.checked_add(accessor.offset())),
        };
        if needed.filter(|&n| n <= view_bytes.len()).is_none() {
            return Err(fail(format!(
                "holds {count} elements of {element} bytes from byte {}, past the {} bytes of \
                 buffer view {}",
                accessor.offset(),
                view_bytes.len(),
                view.index()
            )));
        }
        let mut out = Vec::with_capacity(element * count);
        for i in 0..count {
            let at = accessor.offset() + i * stride;
            out.extend_from_slice(&view_bytes[at..at + element]);
        }
        Ok((accessor, out))
    }
}

/// One little-endian component as `f64` (exact for every glTF component type).
fn component(c: &[u8], t: DataType) -> f64 {
    match t {
        DataType::I8 => f64::from(c[0] as i8),
        DataType::U8 => f64::from(c[0]),
        DataType::I16 => f64::from(i16::from_le_bytes([c[0], c[1]])),
        DataType::U16 => f64::from(u16::from_le_bytes([c[0], c[1]])),
        DataType::U32 => f64::from(u32::from_le_bytes([c[0], c[1], c[2], c[3]])),
        DataType::F32 => f64::from(f32::from_le_bytes([c[0], c[1], c[2], c[3]])),
    }
}
