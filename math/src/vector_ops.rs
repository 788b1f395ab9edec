//! What Vector2, Vector3 and Vector4 share, written once: the operators (`+`, `-`, `*` and `/`
//! by a vector or a scalar, unary `-`, and the assigning forms) and the static functions that
//! XNA defines per component (Dot, Length, Distance, Normalize, Lerp, SmoothStep, Hermite,
//! CatmullRom, Barycentric, Clamp, Min, Max). Each vector file invokes [`vector_common!`] with its
//! fields and adds what is its own (constants, Cross, Reflect, the transforms).

/// Implements the shared operators and per-component functions for a vector type whose fields
/// are all `f32`.
macro_rules! vector_common {
    ($T:ident, $xna:literal, $($f:ident),+) => {
        impl $T {
            #[doc = concat!("`new ", $xna, "(", stringify!($($f),+), ")`.")]
            pub const fn new($($f: f32),+) -> Self {
                $T { $($f),+ }
            }

            #[doc = concat!("`new ", $xna, "(value)`: every component set to `value`.")]
            pub const fn splat(value: f32) -> Self {
                $T { $($f: value),+ }
            }

            #[doc = concat!("`", $xna, ".Dot(vector1, vector2)`: the sum of the component products.")]
            #[inline]
            pub fn dot(self, other: $T) -> f32 {
                0.0 $(+ self.$f * other.$f)+
            }

            #[doc = concat!("`", $xna, ".LengthSquared()`.")]
            #[inline]
            pub fn length_squared(self) -> f32 {
                self.dot(self)
            }

            #[doc = concat!("`", $xna, ".Length()`.")]
            #[inline]
            pub fn length(self) -> f32 {
                self.length_squared().sqrt()
            }

            #[doc = concat!("`", $xna, ".DistanceSquared(value1, value2)`.")]
            #[inline]
            pub fn distance_squared(self, other: $T) -> f32 {
                (self - other).length_squared()
            }

            #[doc = concat!("`", $xna, ".Distance(value1, value2)`.")]
            #[inline]
            pub fn distance(self, other: $T) -> f32 {
                self.distance_squared(other).sqrt()
            }

            #[doc = concat!("`", $xna, ".Normalize(value)`: the vector times the reciprocal of ")]
            /// its length. As in XNA, a zero vector gives NaN in every component (0 × ∞); no
            /// error, since XNA raises none. The instance form `v.Normalize()` is
            /// `v = v.normalize()`.
            #[inline]
            pub fn normalize(self) -> $T {
                self * (1.0 / self.length())
            }

            #[doc = concat!("`", $xna, ".Lerp(value1, value2, amount)`: per component, ")]
            /// `value1 + (value2 − value1) × amount`; the amount is not clamped.
            pub fn lerp(self, value2: $T, amount: f32) -> $T {
                $T { $($f: crate::MathHelper::lerp(self.$f, value2.$f, amount)),+ }
            }

            #[doc = concat!("`", $xna, ".SmoothStep(value1, value2, amount)`: ")]
            /// [`MathHelper::smooth_step`](crate::MathHelper::smooth_step) per component.
            pub fn smooth_step(self, value2: $T, amount: f32) -> $T {
                $T { $($f: crate::MathHelper::smooth_step(self.$f, value2.$f, amount)),+ }
            }

            #[doc = concat!("`", $xna, ".Hermite(value1, tangent1, value2, tangent2, amount)`: ")]
            /// [`MathHelper::hermite`](crate::MathHelper::hermite) per component.
            pub fn hermite(self, tangent1: $T, value2: $T, tangent2: $T, amount: f32) -> $T {
                $T {
                    $($f: crate::MathHelper::hermite(
                        self.$f, tangent1.$f, value2.$f, tangent2.$f, amount,
                    )),+
                }
            }

            #[doc = concat!("`", $xna, ".CatmullRom(value1, value2, value3, value4, amount)`: ")]
            /// [`MathHelper::catmull_rom`](crate::MathHelper::catmull_rom) per component.
            pub fn catmull_rom(self, value2: $T, value3: $T, value4: $T, amount: f32) -> $T {
                $T {
                    $($f: crate::MathHelper::catmull_rom(
                        self.$f, value2.$f, value3.$f, value4.$f, amount,
                    )),+
                }
            }

            #[doc = concat!("`", $xna, ".Barycentric(value1, value2, value3, amount1, amount2)`: ")]
            /// [`MathHelper::barycentric`](crate::MathHelper::barycentric) per component.
            pub fn barycentric(self, value2: $T, value3: $T, amount1: f32, amount2: f32) -> $T {
                $T {
                    $($f: crate::MathHelper::barycentric(
                        self.$f, value2.$f, value3.$f, amount1, amount2,
                    )),+
                }
            }

            #[doc = concat!("`", $xna, ".Clamp(value1, min, max)`: ")]
            /// [`MathHelper::clamp`](crate::MathHelper::clamp) per component.
            pub fn clamp(self, min: $T, max: $T) -> $T {
                $T { $($f: crate::MathHelper::clamp(self.$f, min.$f, max.$f)),+ }
            }

            #[doc = concat!("`", $xna, ".Min(value1, value2)`: the smaller of each pair of components.")]
            pub fn min(self, other: $T) -> $T {
                $T { $($f: crate::MathHelper::min(self.$f, other.$f)),+ }
            }

            #[doc = concat!("`", $xna, ".Max(value1, value2)`: the larger of each pair of components.")]
            pub fn max(self, other: $T) -> $T {
                $T { $($f: crate::MathHelper::max(self.$f, other.$f)),+ }
            }
        }

        impl std::ops::Add for $T {
            type Output = $T;
            #[doc = concat!("`", $xna, ".Add` (`+`).")]
            #[inline]
            fn add(self, o: $T) -> $T {
                $T { $($f: self.$f + o.$f),+ }
            }
        }

        impl std::ops::Sub for $T {
            type Output = $T;
            #[doc = concat!("`", $xna, ".Subtract` (`-`).")]
            #[inline]
            fn sub(self, o: $T) -> $T {
                $T { $($f: self.$f - o.$f),+ }
            }
        }

        impl std::ops::Mul for $T {
            type Output = $T;
            #[doc = concat!("`", $xna, ".Multiply(value1, value2)`: component by component.")]
            #[inline]
            fn mul(self, o: $T) -> $T {
                $T { $($f: self.$f * o.$f),+ }
            }
        }

        impl std::ops::Mul<f32> for $T {
            type Output = $T;
            #[doc = concat!("`", $xna, ".Multiply(value, scaleFactor)`.")]
            #[inline]
            fn mul(self, s: f32) -> $T {
                $T { $($f: self.$f * s),+ }
            }
        }

        impl std::ops::Mul<$T> for f32 {
            type Output = $T;
            #[doc = concat!("`scaleFactor * ", $xna, "`.")]
            #[inline]
            fn mul(self, v: $T) -> $T {
                v * self
            }
        }

        impl std::ops::Div for $T {
            type Output = $T;
            #[doc = concat!("`", $xna, ".Divide(value1, value2)`: component by component.")]
            #[inline]
            fn div(self, o: $T) -> $T {
                $T { $($f: self.$f / o.$f),+ }
            }
        }

        impl std::ops::Div<f32> for $T {
            type Output = $T;
            #[doc = concat!("`", $xna, ".Divide(value1, divider)`: XNA multiplies by the ")]
            /// reciprocal, and so does this (the results can differ from a true division in the
            /// last bit).
            #[inline]
            fn div(self, d: f32) -> $T {
                self * (1.0 / d)
            }
        }

        impl std::ops::Neg for $T {
            type Output = $T;
            #[doc = concat!("`", $xna, ".Negate` (unary `-`).")]
            #[inline]
            fn neg(self) -> $T {
                $T { $($f: -self.$f),+ }
            }
        }

        impl std::ops::AddAssign for $T {
            #[inline]
            fn add_assign(&mut self, o: $T) {
                *self = *self + o;
            }
        }

        impl std::ops::SubAssign for $T {
            #[inline]
            fn sub_assign(&mut self, o: $T) {
                *self = *self - o;
            }
        }

        impl std::ops::MulAssign for $T {
            #[inline]
            fn mul_assign(&mut self, o: $T) {
                *self = *self * o;
            }
        }

        impl std::ops::MulAssign<f32> for $T {
            #[inline]
            fn mul_assign(&mut self, s: f32) {
                *self = *self * s;
            }
        }

        impl std::ops::DivAssign for $T {
            #[inline]
            fn div_assign(&mut self, o: $T) {
                *self = *self / o;
            }
        }

        impl std::ops::DivAssign<f32> for $T {
            #[inline]
            fn div_assign(&mut self, d: f32) {
                *self = *self / d;
            }
        }
    };
}

pub(crate) use vector_common;
