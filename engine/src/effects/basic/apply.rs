//! BasicEffect's `Apply`: what it records into the device's applied effect
//! ([`AppliedEffect`]), whole or, when nothing a run of draws shares changed, only the draw's
//! own values ([`BasicApplied`]); and the block its shaders read (`shaders/glsl/basic_block.glsl`).

use std::sync::Arc;

use xnagraph_graph::{
    BasicDrawValues, BasicRunBasis, StockMaterial, StockShader, TextureState, MATERIAL_FLOATS,
};

use super::BasicEffect;
use crate::device::draw_state::{AppliedEffect, BasicApplied, BoundTexture, BASIC_RUN_VALUES};
use crate::device::shared::DeviceShared;
use crate::effects::stock::{slot_of, switch, AppliedChange, Block, StockEffect};
use crate::error::{Result, XnaError};
use crate::math::Vector3;

impl StockEffect for BasicEffect {
    fn device(&self) -> &Arc<DeviceShared> {
        &self.device
    }

    fn device_textures(&self) -> Vec<(usize, Arc<dyn BoundTexture>)> {
        if !self.texture_enabled {
            return Vec::new();
        }
        slot_of(0, &self.texture).into_iter().collect()
    }

    fn applied_with(&self, texture0: Option<Arc<TextureState>>) -> Result<AppliedEffect> {
        self.check_values()?;
        let texture = self.sampled(texture0)?;
        let mut material = StockMaterial { shader: StockShader::Basic, ..Default::default() };
        let (transform, basic) = self.write_block(self.run_values(), &mut material.block);
        let mut applied = AppliedEffect {
            transform,
            material,
            basic: Some(basic),
            texture,
            texture2: None,
            bones: Vec::new(),
            needs_color: false,
            needs_texture_coordinate: false,
            needs_normal: false,
            needs_texture_coordinate1: false,
            needs_skinning: false,
            reads_slots: [false; 2],
        };
        self.set_needs(&mut applied);
        Ok(applied)
    }

    /// In place: a game applies the pass once per draw, so the values are written straight into
    /// the device's applied effect, and its texture (the white texel, most often) is only
    /// replaced when it is another. When every value a run shares is as the last `Apply` left
    /// it (the game changed World or the material colours, as XNA teaches per object), only
    /// the draw's own values are checked and kept: what is derived from them (the clip
    /// transform, World's inverse transpose, the lit colours, the fog vector) waits for the
    /// draw ([`AppliedEffect::derive_values`]), or, for a draw the recording merges into a run,
    /// for the backend's lowering, off the game's thread.
    fn apply_to(&self, target: &mut Option<Box<AppliedEffect>>) -> Result<AppliedChange> {
        let Some(applied) = target.as_deref_mut() else {
            *target = Some(Box::new(self.applied()?));
            return Ok(AppliedChange::More);
        };
        let same_run = applied.material.shader == StockShader::Basic
            && applied.basic.as_ref().is_some_and(|b| self.has_run_values(&b.run));
        match same_run {
            true => self.check_draw_values()?,
            false => self.check_values()?,
        }
        let texture = match self.texture_enabled {
            false if Arc::ptr_eq(&applied.texture, &self.white_state) => None,
            _ => Some(self.sampled(None)?),
        };
        // Nothing fails past this point: an effect that cannot be applied left the last
        // applied effect as it was.
        let change = match (same_run, &texture) {
            (true, None) => AppliedChange::OwnValues,
            _ => AppliedChange::More,
        };
        match applied.basic.as_mut().filter(|_| same_run) {
            Some(basic) => {
                basic.values = self.draw_values();
                basic.stale = true;
            }
            None => {
                applied.material.shader = StockShader::Basic;
                let run = self.run_values();
                let (transform, basic) = self.write_block(run, &mut applied.material.block);
                applied.transform = transform;
                applied.basic = Some(basic);
            }
        }
        if let Some(texture) = texture {
            applied.texture = texture;
        }
        applied.texture2 = None;
        applied.bones.clear();
        applied.reads_slots = [false; 2];
        self.set_needs(applied);
        Ok(change)
    }
}

// What [`BasicEffect::run_values`] puts together: View, Projection, the ambient and fog
// colours, the fog range, five switches, three lights of ten values.
const _: () = assert!(BASIC_RUN_VALUES == 16 + 16 + 3 + 3 + 2 + 5 + 3 * 10);

impl BasicEffect {
    /// The texture a draw samples: `texture0` (what a `SpriteBatch` binds) or `Texture` when
    /// `TextureEnabled`, else the white texel.
    fn sampled(&self, texture0: Option<Arc<TextureState>>) -> Result<Arc<TextureState>> {
        match (self.texture_enabled, texture0, &self.texture) {
            (true, Some(t), _) => Ok(t),
            (true, None, Some(t)) => t.core.state(),
            (true, None, None) => Err(XnaError::invalid_operation(
                "BasicEffect.TextureEnabled is set but BasicEffect.Texture is null.",
            )),
            (false, _, _) => Ok(self.white_state.clone()),
        }
    }

    /// Writes the whole block a draw reads into `floats` (the draw's own parts derived from its
    /// values, then the run's) and returns the clip transform with what the applied effect
    /// keeps beside the block; `run` is [`Self::run_values`]. The values were checked.
    fn write_block(
        &self,
        run: [u32; BASIC_RUN_VALUES],
        floats: &mut [f32; MATERIAL_FLOATS],
    ) -> ([f32; 16], BasicApplied) {
        let (basis, values) = (self.run_basis(), self.draw_values());
        let transform = basis.write_own(&values, floats);
        self.write_run_values(floats);
        (transform, BasicApplied { run, basis: Arc::new(basis), values, stale: false })
    }

    /// The values of a draw that are its own, as `Apply` hands them on ([`BasicDrawValues`];
    /// the values were checked).
    pub(super) fn draw_values(&self) -> BasicDrawValues {
        BasicDrawValues {
            world: self.world,
            diffuse_color: self.diffuse_color,
            emissive_color: self.emissive_color,
            specular_color: self.specular_color,
            specular_power: self.specular_power,
            alpha: self.alpha.clamp(0.0, 1.0),
        }
    }

    /// What a draw's own values are derived with ([`BasicRunBasis`]).
    pub(super) fn run_basis(&self) -> BasicRunBasis {
        BasicRunBasis {
            view: self.view,
            projection: self.projection,
            ambient_light_color: self.ambient_light_color,
            lighting_enabled: self.lighting_enabled,
            fog_enabled: self.fog_enabled,
            fog_start: self.fog_start,
            fog_end: self.fog_end,
        }
    }

    /// Every value a run of draws shares, as bits: View, Projection, the ambient and fog
    /// colours, the fog range, the switches and the lights. Two applies with the same give the
    /// same block but for the draw's own parts ([`BasicRunBasis::write_own`]).
    fn run_values(&self) -> [u32; BASIC_RUN_VALUES] {
        let mut bits = [0; BASIC_RUN_VALUES];
        let mut at = 0;
        self.visit_run_values(|floats| {
            for (b, f) in bits[at..at + floats.len()].iter_mut().zip(floats) {
                *b = f.to_bits();
            }
            at += floats.len();
            true
        });
        debug_assert_eq!(at, BASIC_RUN_VALUES);
        bits
    }

    /// Whether [`Self::run_values`] would give `bits`, read in place (an `Apply` per draw asks
    /// this, and most often the answer is yes).
    fn has_run_values(&self, bits: &[u32; BASIC_RUN_VALUES]) -> bool {
        let mut at = 0;
        self.visit_run_values(|floats| {
            let same = floats.iter().zip(&bits[at..]).all(|(f, b)| f.to_bits() == *b);
            at += floats.len();
            same
        })
    }

    /// Hands each group of [`Self::run_values`] to `visit`, in order, until it answers false;
    /// answers whether it never did.
    fn visit_run_values(&self, mut visit: impl FnMut(&[f32]) -> bool) -> bool {
        let xyz = |v: Vector3| [v.x, v.y, v.z];
        visit(self.view.m.as_flattened())
            && visit(self.projection.m.as_flattened())
            && visit(&xyz(self.ambient_light_color))
            && visit(&xyz(self.fog_color))
            && visit(&[self.fog_start, self.fog_end])
            && visit(&[
                switch(self.vertex_color_enabled),
                switch(self.texture_enabled),
                switch(self.lighting_enabled),
                switch(self.per_pixel()),
                switch(self.fog_enabled),
            ])
            && self.lights().into_iter().all(|l| {
                visit(&[switch(l.enabled)])
                    && visit(&xyz(l.direction))
                    && visit(&xyz(l.diffuse_color))
                    && visit(&xyz(l.specular_color))
            })
    }

    /// Writes the parts of the uniform block a draw reads (`shaders/glsl/basic_block.glsl`)
    /// that every draw of a run shares into `floats`: the eye position and fog colour (floats
    /// 44..52), the lights and the options word (56..96). The draw's own parts are
    /// [`BasicRunBasis::write_own`]'s; the values were checked ([`Self::check_values`]).
    fn write_run_values(&self, floats: &mut [f32; MATERIAL_FLOATS]) {
        let mut block = Block::at(floats, 44);
        block
            .vec3(self.eye.eye_position(&self.view), 1.0)
            .vec3(self.fog_color, 0.0)
            // The fog vector: the draw's own.
            .skip(4);
        block.lights(self.lights(), true);
        let lighting = match (self.lighting_enabled, self.per_pixel()) {
            (false, _) => 0.0,
            (true, false) => 1.0,
            (true, true) => 2.0,
        };
        block.vec4([
            switch(self.vertex_color_enabled),
            switch(self.texture_enabled),
            lighting,
            switch(self.fog_enabled),
        ]);
        block.end(StockShader::Basic);
    }

    /// The vertex elements the effect's options read.
    fn set_needs(&self, applied: &mut AppliedEffect) {
        applied.needs_color = self.vertex_color_enabled;
        applied.needs_texture_coordinate = self.texture_enabled;
        applied.needs_normal = self.lighting_enabled;
        applied.needs_texture_coordinate1 = false;
        applied.needs_skinning = false;
    }
}
