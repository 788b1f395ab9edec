//! XNA 4.0's math library (`Microsoft.Xna.Framework`'s value types) in Rust: vectors,
//! matrices, quaternions, planes, rays and bounding volumes with XNA's conventions and
//! results.
//!
//! The conventions are XNA's throughout: row vectors multiplied on the left (`v * M`, so
//! `A * B` applies `A` first), a right-handed space looking down −z, projections mapping depth
//! to [0, 1], angles in radians. Names are XNA's in Rust casing: `Matrix.CreateLookAt` is
//! [`Matrix::create_look_at`], `Vector3.UnitX` is [`Vector3::UNIT_X`]. XNA's static functions
//! taking the value first are methods here, callable either way (`Vector3::dot(a, b)` or
//! `a.dot(b)`). Where XNA overloads one name on argument types, the Rust names say the type
//! (`transform` by a matrix, `transform_quaternion` by a quaternion; `contains_box`,
//! `contains_sphere`…). Calls that XNA validates return [`MathError`] where XNA throws.
//!
//! Every plain type is `#[repr(C)]` and `bytemuck::Pod`, laid out as XNA's (a `Matrix` is
//! sixteen `f32`s, M11 to M44), so it can go into vertex and constant data as it is.

mod bounding_box;
mod bounding_frustum;
mod bounding_sphere;
mod color;
mod containment;
mod curve;
mod error;
mod helper;
mod interop;
pub(crate) mod matrix;
pub mod packed;
mod plane;
mod point;
mod quaternion;
mod ray;
mod rectangle;
mod vector2;
mod vector3;
mod vector4;
mod vector_ops;
mod viewport;

pub use bounding_box::BoundingBox;
pub use bounding_frustum::BoundingFrustum;
pub use bounding_sphere::BoundingSphere;
pub use color::Color;
pub use containment::{ContainmentType, PlaneIntersectionType};
pub use curve::{
    Curve, CurveContinuity, CurveKey, CurveKeyCollection, CurveLoopType, CurveTangent,
};
pub use error::MathError;
pub use helper::MathHelper;
pub use matrix::Matrix;
pub use plane::Plane;
pub use point::Point;
pub use quaternion::Quaternion;
pub use ray::Ray;
pub use rectangle::Rectangle;
pub use vector2::Vector2;
pub use vector3::Vector3;
pub use vector4::Vector4;
pub use viewport::Viewport;
