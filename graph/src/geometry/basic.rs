//! BasicEffect's values of one draw as `Apply` takes them ([`BasicDrawValues`]: World and the
//! material colours), what they are derived with ([`BasicRunBasis`]: View, Projection, the
//! ambient light, fog), and the one derivation of the values a draw's shaders read from them:
//! the clip transform, World's inverse transpose, the lit colours and the fog vector.
//!
//! The engine's `BasicEffect` derives them at `Apply` for a draw recorded whole; a draw the
//! recording merges into a run keeps only its values ([`GeometryDraw::repeat_values`]), and the
//! backend derives its instance as it writes the run's instances for the GPU
//! ([`GeometryDraw::repeat_instances`]), on the render thread rather than the game's. Both go
//! through [`BasicRunBasis::own_values`], so a merged draw reads the bits an unmerged one would.
//!
//! [`GeometryDraw::repeat_values`]: super::GeometryDraw::repeat_values
//! [`GeometryDraw::repeat_instances`]: super::GeometryDraw::repeat_instances

use xnagraph_math::{Matrix, Vector3};

use super::{BasicInstance, BASIC_INSTANCE_FLOATS, MATERIAL_FLOATS};

/// BasicEffect's values of one draw of a run: `World`, `DiffuseColor`, `EmissiveColor`,
/// `SpecularColor`, `SpecularPower` and `Alpha` (clamped to 0..=1, as `Apply` hands it on), as
/// they were at the draw's `Apply`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BasicDrawValues {
    /// `World`.
    pub world: Matrix,
    /// `DiffuseColor`.
    pub diffuse_color: Vector3,
    /// `EmissiveColor`.
    pub emissive_color: Vector3,
    /// `SpecularColor`.
    pub specular_color: Vector3,
    /// `SpecularPower`.
    pub specular_power: f32,
    /// `Alpha`, clamped to 0..=1.
    pub alpha: f32,
}

/// What BasicEffect derives a draw's values with that every draw of a run shares: `View`,
/// `Projection`, `AmbientLightColor`, whether lighting is on, and the fog's range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BasicRunBasis {
    /// `View`.
    pub view: Matrix,
    /// `Projection`.
    pub projection: Matrix,
    /// `AmbientLightColor`.
    pub ambient_light_color: Vector3,
    /// `LightingEnabled`: the colours are lit (diffuse and emissive apart) or flat.
    pub lighting_enabled: bool,
    /// `FogEnabled`.
    pub fog_enabled: bool,
    /// `FogStart`.
    pub fog_start: f32,
    /// `FogEnd`.
    pub fog_end: f32,
}

/// The values of one draw's block that are its own, derived ([`BasicRunBasis::own_values`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct BasicOwnValues {
    /// World × View × Projection with y flipped, column-major ([`clip_transform_of`]).
    pub transform: [f32; 16],
    /// `World`.
    pub world: Matrix,
    /// `WorldInverseTranspose`.
    pub world_inverse_transpose: Matrix,
    /// The diffuse colour and alpha the shader reads.
    pub diffuse: [f32; 4],
    /// The emissive colour the shader reads (the ambient term folded in when lit).
    pub emissive: [f32; 4],
    /// `SpecularColor` and `SpecularPower`.
    pub specular: [f32; 4],
    /// The fog vector ([`fog_vector`]).
    pub fog: [f32; 4],
}

impl BasicRunBasis {
    /// The values of `values`' draw that are its own, as XNA's BasicEffect hands them to its
    /// shaders: with lighting on, the diffuse colour is DiffuseColor × Alpha and the emissive
    /// term (EmissiveColor + AmbientLightColor × DiffuseColor) × Alpha; with lighting off, the
    /// colour is (DiffuseColor + EmissiveColor) × Alpha and no emissive term.
    pub fn own_values(&self, values: &BasicDrawValues) -> BasicOwnValues {
        let (d, e, a) = (values.diffuse_color, values.emissive_color, values.alpha);
        let world_view = values.world.mul(&self.view);
        let (diffuse, emissive) = match self.lighting_enabled {
            true => (d * a, (e + self.ambient_light_color * d) * a),
            false => ((d + e) * a, Vector3::ZERO),
        };
        let s = values.specular_color;
        BasicOwnValues {
            transform: clip_transform_of(&world_view, &self.projection),
            world: values.world,
            world_inverse_transpose: values.world.invert().transpose(),
            diffuse: [diffuse.x, diffuse.y, diffuse.z, a],
            emissive: [emissive.x, emissive.y, emissive.z, 0.0],
            specular: [s.x, s.y, s.z, values.specular_power],
            fog: fog_vector(self.fog_enabled, &world_view, self.fog_start, self.fog_end),
        }
    }

    /// Writes the parts of BasicEffect's block (`shaders/glsl/basic_block.glsl`) that are
    /// `values`' draw's own into `block`: World and its inverse transpose (floats 0..32), the
    /// three colours (32..44) and the fog vector (52..56); returns the clip transform. The rest
    /// (eye position, fog colour, lights, options) is the effect's to write.
    pub fn write_own(
        &self,
        values: &BasicDrawValues,
        block: &mut [f32; MATERIAL_FLOATS],
    ) -> [f32; 16] {
        let own = self.own_values(values);
        for (i, row) in own.world.m.iter().chain(&own.world_inverse_transpose.m).enumerate() {
            block[i * 4..i * 4 + 4].copy_from_slice(row);
        }
        block[32..36].copy_from_slice(&own.diffuse);
        block[36..40].copy_from_slice(&own.emissive);
        block[40..44].copy_from_slice(&own.specular);
        block[52..56].copy_from_slice(&own.fog);
        own.transform
    }

    /// The instance of `values`' draw in a merged run: what [`BasicInstance::new`] takes of
    /// the transform and block [`BasicRunBasis::write_own`] gives.
    pub fn instance(&self, values: &BasicDrawValues) -> BasicInstance {
        let own = self.own_values(values);
        // The instance's layout (`BasicDraw` in `shaders/glsl/basic_block.glsl`): the transform,
        // then the block's parts of `BASIC_INSTANCE_PARTS` in order.
        let mut f = [0.0; BASIC_INSTANCE_FLOATS];
        f[..16].copy_from_slice(&own.transform);
        f[16..32].copy_from_slice(own.world.m.as_flattened());
        // The inverse transpose's first three rows: no stage reads the fourth.
        f[32..44].copy_from_slice(&own.world_inverse_transpose.m.as_flattened()[..12]);
        f[44..48].copy_from_slice(&own.diffuse);
        f[48..52].copy_from_slice(&own.emissive);
        f[52..56].copy_from_slice(&own.specular);
        f[56..60].copy_from_slice(&own.fog);
        BasicInstance(f)
    }
}

/// World × View × Projection with y flipped for Vulkan's clip space, column-major for the
/// shaders (whose `M * v` is XNA's `v * M`), from World × View already computed.
pub fn clip_transform_of(world_view: &Matrix, projection: &Matrix) -> [f32; 16] {
    flip_y(world_view.mul(projection)).to_column_major()
}

/// `m` × `Matrix::CreateScale(1, -1, 1)`: its y column negated, which is that product's value
/// for every finite `m` (up to the sign of a zero), without the product's 64 multiplications.
pub fn flip_y(mut m: Matrix) -> Matrix {
    for row in &mut m.m {
        row[1] = -row[1];
    }
    m
}

/// XNA's fog vector: the view-space depth row of World × View, scaled so that its dot product
/// with an object-space position (w = 1) is 0 at `FogStart` and 1 at `FogEnd` (the shader
/// saturates it). Off, it is zero (no fog); with `FogStart == FogEnd`, (0, 0, 0, 1) fogs
/// everything fully.
pub fn fog_vector(enabled: bool, world_view: &Matrix, start: f32, end: f32) -> [f32; 4] {
    if !enabled {
        return [0.0; 4];
    }
    if start == end {
        return [0.0, 0.0, 0.0, 1.0];
    }
    let scale = 1.0 / (start - end);
    let m = &world_view.m;
    [m[0][2] * scale, m[1][2] * scale, m[2][2] * scale, (m[3][2] + start) * scale]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn basis(lighting_enabled: bool, fog_enabled: bool) -> BasicRunBasis {
        BasicRunBasis {
            view: Matrix::create_look_at(
                Vector3::new(1.0, 2.0, 9.0),
                Vector3::ZERO,
                Vector3::UNIT_Y,
            ),
            projection: Matrix::create_perspective_field_of_view(0.9, 1.5, 0.5, 80.0).unwrap(),
            ambient_light_color: Vector3::new(0.1, 0.2, 0.3),
            lighting_enabled,
            fog_enabled,
            fog_start: 2.0,
            fog_end: 20.0,
        }
    }

    fn values(turn: f32) -> BasicDrawValues {
        BasicDrawValues {
            world: Matrix::create_from_yaw_pitch_roll(turn, 0.5, -0.25)
                .mul(&Matrix::create_translation(1.5, -2.0, 0.75)),
            diffuse_color: Vector3::new(0.9, 0.4, 0.2),
            emissive_color: Vector3::new(0.05, 0.0, 0.1),
            specular_color: Vector3::new(0.5, 0.5, 0.25),
            specular_power: 12.0,
            alpha: 0.75,
        }
    }

    /// A merged run's instance is the instance of the whole block an unmerged draw writes,
    /// bit for bit, lit or not, with fog or not.
    #[test]
    fn an_instance_is_what_a_whole_block_of_the_same_values_holds() {
        for (lit, fog) in [(false, false), (true, false), (true, true), (false, true)] {
            let basis = basis(lit, fog);
            for turn in [0.0, 1.3, -2.9] {
                let v = values(turn);
                let mut block = [f32::NAN; MATERIAL_FLOATS];
                let transform = basis.write_own(&v, &mut block);
                let whole = BasicInstance::new(&transform, &block);
                let bits = |i: &BasicInstance| i.0.map(f32::to_bits);
                assert_eq!(bits(&basis.instance(&v)), bits(&whole), "lit {lit}, fog {fog}");
            }
        }
    }

    /// What each derived value is: the clip transform is World × View × Projection flipped,
    /// the colours fold alpha (and, lit, the ambient term) in, the fog vector is World × View's
    /// depth row.
    #[test]
    fn own_values_are_xnas_basic_effect_values() {
        let v = values(0.4);
        let lit = basis(true, true).own_values(&v);
        let wvp = v.world.mul(&lit_view()).mul(&basis(true, true).projection);
        let flip = Matrix::create_scale(1.0, -1.0, 1.0);
        let expected = wvp.mul(&flip).to_column_major();
        for (got, want) in lit.transform.iter().zip(expected) {
            assert!((got - want).abs() < 1e-5, "{got} against {want}");
        }
        let a = 0.75;
        assert_eq!(lit.diffuse, [0.9 * a, 0.4 * a, 0.2 * a, a]);
        let e = |i: usize| ([0.05, 0.0, 0.1][i] + [0.1, 0.2, 0.3][i] * [0.9f32, 0.4, 0.2][i]) * a;
        assert_eq!(lit.emissive, [e(0), e(1), e(2), 0.0]);
        assert_eq!(lit.specular, [0.5, 0.5, 0.25, 12.0]);
        let flat = basis(false, false).own_values(&v);
        assert_eq!(flat.diffuse, [(0.9 + 0.05) * a, 0.4 * a, (0.2 + 0.1) * a, a]);
        assert_eq!(flat.emissive, [0.0; 4]);
        assert_eq!(flat.fog, [0.0; 4]);
        let world_view = v.world.mul(&lit_view());
        assert_eq!(lit.fog, fog_vector(true, &world_view, 2.0, 20.0));
        assert_eq!(lit.world_inverse_transpose, v.world.invert().transpose());
    }

    fn lit_view() -> Matrix {
        basis(true, true).view
    }

    #[test]
    fn flipping_y_is_the_product_with_xnas_y_flip() {
        let flip = Matrix::create_scale(1.0, -1.0, 1.0);
        let m = Matrix::create_from_yaw_pitch_roll(0.3, -1.1, 2.0)
            .mul(&Matrix::create_translation(4.0, -5.5, 6.25))
            .mul(&Matrix::create_perspective_field_of_view(0.9, 1.5, 0.5, 80.0).unwrap());
        let bits = |m: &Matrix| m.m.map(|row| row.map(f32::to_bits));
        assert_eq!(bits(&flip_y(m)), bits(&m.mul(&flip)));
    }

    #[test]
    fn fog_vector_is_zero_at_fog_start_and_one_at_fog_end() {
        let world_view = Matrix::create_translation(0.0, 0.0, -3.0);
        let f = fog_vector(true, &world_view, 2.0, 6.0);
        // A point at object z = -1 sits at view depth 4 (z = -4): halfway from 2 to 6.
        let at = |z: f32| f[2] * z + f[3];
        assert!((at(1.0) - 0.0).abs() < 1e-6, "view depth 2");
        assert!((at(-1.0) - 0.5).abs() < 1e-6, "view depth 4");
        assert!((at(-3.0) - 1.0).abs() < 1e-6, "view depth 6");
        assert_eq!(fog_vector(false, &world_view, 2.0, 6.0), [0.0; 4]);
        assert_eq!(fog_vector(true, &world_view, 5.0, 5.0), [0.0, 0.0, 0.0, 1.0]);
    }
}
