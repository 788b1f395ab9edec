//! The 3D sample's glTF scene (`model3d --scene gltf`): the generated models of
//! [`super::gltf_assets`], loaded by `ContentManager::load::<Model>` from
//! `content/models/` (xnagraph reads a model without an `.xnb` from its `.glb` or `.gltf`):
//! the skinned bar, bent by its animation (or held at one pose), and the static scene beside it.

use std::path::Path;

use xnagraph::{ContentManager, GraphicsDevice, Matrix, Model};

/// Where the bar stands in the world.
pub fn bar_world() -> Matrix {
    Matrix::create_translation(-1.3, -1.0, 0.0)
}

/// Where the static scene stands in the world: scaled to 0.6, right of the bar.
pub fn scene_world() -> Matrix {
    Matrix::create_scale_uniform(0.6) * Matrix::create_translation(1.2, -0.8, 0.0)
}

/// The two models, the bar owned so its bones can move.
pub struct GltfScene {
    bar: Model,
    scene: std::sync::Arc<Model>,
}

impl GltfScene {
    /// Loads `models/bar` and `models/scene` from `content`.
    pub fn load(device: &GraphicsDevice, content: &Path) -> xnagraph::Result<GltfScene> {
        let manager = ContentManager::new(device, content);
        // The bar's bones change every frame: a model of its own, sharing buffers and effects.
        let bar = Model::clone(manager.load::<Model>("models/bar")?.as_ref());
        let scene = manager.load::<Model>("models/scene")?;
        Ok(GltfScene { bar, scene })
    }

    /// Draws both models, the bar posed at `time` seconds of its animation (looped).
    pub fn draw(&mut self, time: f32, view: Matrix, projection: Matrix) -> xnagraph::Result<()> {
        let duration = self.bar.animations().first().map_or(1.0, |a| a.duration()).max(1e-3);
        self.bar.animate_bones(0, time % duration)?;
        self.bar.update_skins()?;
        self.bar.draw(bar_world(), view, projection)?;
        self.scene.draw(scene_world(), view, projection)
    }
}
