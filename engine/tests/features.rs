//! A build without a feature refuses what the feature brings at the call that asks for it, with
//! `NotSupported` naming the feature, and everything else works. Run with the feature off, for
//! example `cargo test -p xnagraph --no-default-features --test features`; each test is compiled
//! only where its feature is off, so a build with every feature runs none of them. The null
//! backend, which every build has, stands in for the GPU.

#![allow(unused_imports)]

use xnagraph::{
    BackendKind, DeviceOptions, GraphicsDevice, GraphicsProfile, PresentationParameters, XnaError,
};

#[allow(dead_code)]
fn null_device() -> GraphicsDevice {
    let options = DeviceOptions { backend: BackendKind::Null, ..DeviceOptions::default() };
    GraphicsDevice::with_options(GraphicsProfile::HiDef, PresentationParameters::default(), options)
        .expect("the null backend is in every build")
}

/// `NotSupported` whose message names `feature` in backquotes.
#[allow(dead_code)]
fn names_feature<T: std::fmt::Debug>(result: xnagraph::Result<T>, feature: &str) {
    match result {
        Err(XnaError::NotSupported { message }) => {
            assert!(message.contains(&format!("`{feature}`")), "{message}")
        }
        other => panic!("expected NotSupported naming `{feature}`, got {other:?}"),
    }
}

#[cfg(not(feature = "vulkan"))]
#[test]
fn a_device_on_vulkan_without_the_vulkan_feature_is_not_supported() {
    let options = DeviceOptions { backend: BackendKind::Vulkan, ..DeviceOptions::default() };
    names_feature(
        GraphicsDevice::with_options(
            GraphicsProfile::HiDef,
            PresentationParameters::default(),
            options,
        ),
        "vulkan",
    );
}

/// The default options name a backend the build has: SDL_gpu where it is the only GPU backend.
#[test]
fn the_default_options_name_a_backend_this_build_has() {
    let expected = if cfg!(all(feature = "sdlgpu", not(feature = "vulkan"))) {
        BackendKind::SdlGpu
    } else {
        BackendKind::Vulkan
    };
    assert_eq!(DeviceOptions::default().backend, expected);
    assert_eq!(DeviceOptions::default().backend, BackendKind::default());
}

#[cfg(not(feature = "sdlgpu"))]
#[test]
fn a_device_on_sdl_gpu_without_the_sdlgpu_feature_is_not_supported() {
    let options = DeviceOptions { backend: BackendKind::SdlGpu, ..DeviceOptions::default() };
    names_feature(
        GraphicsDevice::with_options(
            GraphicsProfile::HiDef,
            PresentationParameters::default(),
            options,
        ),
        "sdlgpu",
    );
}

#[cfg(not(feature = "runtime-effects"))]
#[test]
fn glsl_effects_without_runtime_effects_are_not_supported_and_spirv_ones_are_made() {
    let device = null_device();
    names_feature(xnagraph::Effect::from_glsl(&device, "void main() {}"), "runtime-effects");
    let pass = xnagraph::PassSource { name: "P", vertex: "", fragment: "" };
    let technique = xnagraph::TechniqueSource { name: "T", passes: &[pass] };
    names_feature(xnagraph::CustomEffect::new(&device, &[technique]), "runtime-effects");
    names_feature(xnagraph::CustomEffect::from_hlsl(&device, &[technique]), "runtime-effects");
    // The committed SPIR-V of the stock sprite stage needs no compiler.
    let words = xnagraph_shaders::SPRITE_FRAG.words();
    let effect = xnagraph::Effect::from_spirv(&device, &words).expect("SPIR-V needs no compiler");
    assert_eq!(effect.output_count(), 1);
}

#[cfg(not(feature = "capture"))]
#[test]
fn capturing_without_the_capture_feature_is_not_supported() {
    let device = null_device();
    names_feature(device.capture_frames(std::env::temp_dir().join("never.xgc"), 0..=0), "capture");
    assert!(device.capture_result().is_none());
    // Frames still flush and present.
    device.clear(xnagraph::Color::RED).unwrap();
    device.present().unwrap();
}

#[cfg(not(feature = "png"))]
#[test]
fn png_images_without_the_png_feature_are_not_supported() {
    let device = null_device();
    // A PNG's signature and the start of its header: recognised, not decoded.
    let png = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, b'I', b'H', b'D', b'R'];
    names_feature(xnagraph::Texture2D::from_stream(&device, &png[..]), "png");
    let texture = xnagraph::Texture2D::new(&device, 2, 2).unwrap();
    names_feature(texture.save_as_png(Vec::new(), 2, 2), "png");
}

#[cfg(not(feature = "jpeg"))]
#[test]
fn jpeg_images_without_the_jpeg_feature_are_not_supported() {
    let device = null_device();
    let jpeg = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16, b'J', b'F', b'I', b'F', 0, 1, 1, 0, 0, 1];
    names_feature(xnagraph::Texture2D::from_stream(&device, &jpeg[..]), "jpeg");
}

#[cfg(not(feature = "gltf"))]
#[test]
fn gltf_models_without_the_gltf_feature_are_not_supported() {
    let device = null_device();
    // A GLB header: recognised by nothing without the feature, refused before it is read.
    let glb = [b'g', b'l', b'T', b'F', 2, 0, 0, 0, 12, 0, 0, 0];
    names_feature(xnagraph::Model::from_gltf_slice(&device, &glb, None), "gltf");
    // A file on disk, and the content manager's fallback for a model without an `.xnb`.
    let dir = std::env::temp_dir().join(format!("xnagraph-features-gltf-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("model.glb"), glb).unwrap();
    names_feature(xnagraph::Model::from_gltf(&device, dir.join("model.glb")), "gltf");
    let content = xnagraph::ContentManager::new(&device, &dir);
    names_feature(content.load::<xnagraph::Model>("model"), "gltf");
    // Models from `.xnb` files need no feature: a missing one is still ContentLoad.
    assert!(matches!(content.load::<xnagraph::Model>("absent"), Err(XnaError::ContentLoad { .. })));
}
