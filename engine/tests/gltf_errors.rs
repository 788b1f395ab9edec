//! Corrupt and unsupported glTF files: each is an error of XNA's kind whose message says where
//! (the accessor, mesh and primitive, node or skin by index), never a panic. The files are the
//! sample's generated ones with one thing broken.

mod common;

#[allow(dead_code)]
#[path = "../../samples/src/model3d/gltf_assets.rs"]
mod gltf_assets;

use gltf_assets::{bar_glb, glb, scene_gltf};
use serde_json::{json, Value};
use xnagraph::{GraphicsDevice, Model, XnaError};

fn device() -> GraphicsDevice {
    common::device(16, 16)
}

/// The scene's JSON after `edit`, loaded with its buffer as a data URI and no texture.
fn scene_with(device: &GraphicsDevice, edit: impl FnOnce(&mut Value)) -> xnagraph::Result<Model> {
    let (json, bin) = scene_gltf();
    let mut v: Value = serde_json::from_str(&json).unwrap();
    v["buffers"][0]["uri"] =
        json!(format!("data:application/octet-stream;base64,{}", base64(&bin)));
    v["images"][0]["uri"] =
        json!(format!("data:image/png;base64,{}", base64(&gltf_assets::checker_png())));
    edit(&mut v);
    Model::from_gltf_slice(device, v.to_string().as_bytes(), None)
}

/// The bar's GLB with its JSON chunk edited.
fn bar_with(device: &GraphicsDevice, edit: impl FnOnce(&mut Value)) -> xnagraph::Result<Model> {
    let file = bar_glb();
    let json_len = u32::from_le_bytes(file[12..16].try_into().unwrap()) as usize;
    let mut v: Value = serde_json::from_slice(&file[20..20 + json_len]).unwrap();
    let bin = file[20 + json_len + 8..].to_vec();
    edit(&mut v);
    Model::from_gltf_slice(device, &glb(v.to_string().into_bytes(), bin), None)
}

fn base64(bytes: &[u8]) -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for chunk in bytes.chunks(3) {
        let b = [chunk[0], *chunk.get(1).unwrap_or(&0), *chunk.get(2).unwrap_or(&0)];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A `ContentLoad` error whose message holds every one of `wanted`.
#[track_caller]
fn content_load_saying(result: xnagraph::Result<Model>, wanted: &[&str]) {
    match result {
        Err(XnaError::ContentLoad { message, .. }) => {
            for w in wanted {
                assert!(message.contains(w), "{message:?} should say {w:?}");
            }
        }
        other => panic!("expected ContentLoad saying {wanted:?}, got {other:?}"),
    }
}

/// A `NotSupported` error whose message holds every one of `wanted`.
#[track_caller]
fn not_supported_saying(result: xnagraph::Result<Model>, wanted: &[&str]) {
    match result {
        Err(XnaError::NotSupported { message }) => {
            for w in wanted {
                assert!(message.contains(w), "{message:?} should say {w:?}");
            }
        }
        other => panic!("expected NotSupported saying {wanted:?}, got {other:?}"),
    }
}

#[test]
fn the_untouched_files_load() {
    let device = device();
    scene_with(&device, |_| {}).unwrap();
    bar_with(&device, |_| {}).unwrap();
}

#[test]
fn a_truncated_glb_is_a_content_load_error() {
    let device = device();
    let file = bar_glb();
    for cut in [10, 40, file.len() - 100] {
        content_load_saying(Model::from_gltf_slice(&device, &file[..cut], None), &["glTF"]);
    }
}

#[test]
fn an_accessor_index_past_the_accessors_names_where_it_is_used() {
    let device = device();
    let result = scene_with(&device, |v| {
        v["meshes"][1]["primitives"][0]["attributes"]["NORMAL"] = json!(99)
    });
    content_load_saying(result, &["meshes[1].primitives[0]"]);
}

#[test]
fn an_accessor_reaching_past_its_buffer_view_names_the_accessor_and_its_use() {
    let device = device();
    let result = scene_with(&device, |v| v["accessors"][0]["count"] = json!(600));
    content_load_saying(result, &["accessor 0", "mesh 0 primitive 0's POSITION", "buffer view 0"]);
}

#[test]
fn a_buffer_shorter_than_it_declares_is_refused() {
    let device = device();
    let result = scene_with(&device, |v| {
        let length = v["buffers"][0]["byteLength"].as_u64().unwrap();
        v["buffers"][0]["byteLength"] = json!(length + 4);
    });
    content_load_saying(result, &["buffer 0", "declares"]);
}

#[test]
fn attributes_of_mismatched_counts_name_the_accessor() {
    let device = device();
    // The pillar's positions cut to 20: its normals still hold 24.
    let result = scene_with(&device, |v| v["accessors"][2]["count"] = json!(20));
    content_load_saying(
        result,
        &["accessor 3", "mesh 1 primitive 0's NORMAL", "24 elements for 20"],
    );
}

#[test]
fn an_index_past_the_vertices_names_the_index_accessor() {
    let device = device();
    let result = scene_with(&device, |v| {
        for a in 2..=4 {
            v["accessors"][a]["count"] = json!(20);
        }
    });
    content_load_saying(result, &["accessor 5", "mesh 1 primitive 0's indices", "of 20"]);
}

#[test]
fn an_accessor_of_the_wrong_type_for_its_use_is_refused() {
    let device = device();
    // The colours (VEC4) named as the pillar's normals.
    let result =
        scene_with(&device, |v| v["meshes"][1]["primitives"][0]["attributes"]["NORMAL"] = json!(1));
    content_load_saying(result, &["accessor 1", "NORMAL", "Vec4"]);
}

#[test]
fn a_joint_index_past_the_skins_joints_names_the_joints_accessor() {
    let device = device();
    let result = bar_with(&device, |v| {
        v["skins"][0]["joints"] = json!([1]);
        v["skins"][0].as_object_mut().unwrap().remove("inverseBindMatrices");
    });
    content_load_saying(result, &["mesh 0 primitive 1's JOINTS_0", "names joint 1", "has 1"]);
}

#[test]
fn inverse_bind_matrices_of_another_count_than_the_joints_are_refused() {
    let device = device();
    let result = bar_with(&device, |v| v["skins"][0]["joints"] = json!([1, 2, 0]));
    content_load_saying(result, &["skin 0's inverse bind matrices", "2 matrices for 3 joints"]);
}

#[test]
fn a_skin_of_more_joints_than_skinned_effect_takes_is_not_supported() {
    let device = device();
    let result = bar_with(&device, |v| {
        v["skins"][0]["joints"] = json!(vec![1; 73]);
        v["skins"][0].as_object_mut().unwrap().remove("inverseBindMatrices");
    });
    not_supported_saying(result, &["skin 0", "73 joints", "72"]);
}

#[test]
fn points_and_lines_are_not_supported_naming_the_primitive() {
    let device = device();
    let result = scene_with(&device, |v| v["meshes"][1]["primitives"][0]["mode"] = json!(1));
    not_supported_saying(result, &["mesh 1 primitive 0", "Lines"]);
}

#[test]
fn a_node_that_is_its_own_ancestor_is_refused() {
    let device = device();
    let result = scene_with(&device, |v| v["nodes"][2]["children"] = json!([0]));
    content_load_saying(result, &["node 0", "own ancestor"]);
}

#[test]
fn a_node_with_two_parents_is_refused() {
    let device = device();
    let result = scene_with(&device, |v| v["nodes"][2]["children"] = json!([1]));
    content_load_saying(result, &["node 1", "nodes 0 and 2"]);
}

#[test]
fn animation_key_times_of_the_wrong_type_name_the_channel() {
    let device = device();
    // The step channel's key times read through the rotation's values (VEC4) instead.
    let result = bar_with(&device, |v| {
        let rotations = v["animations"][0]["samplers"][0]["output"].clone();
        v["animations"][0]["samplers"][1]["input"] = rotations;
    });
    content_load_saying(result, &["animation 0 channel 1's key times", "Vec4"]);
}

#[test]
fn animation_values_of_another_count_than_the_keys_name_the_channel() {
    let device = device();
    // The step's two translations given the turn's three key times.
    let result = bar_with(&device, |v| {
        let times = v["animations"][0]["samplers"][0]["input"].clone();
        v["animations"][0]["samplers"][1]["input"] = times;
    });
    content_load_saying(result, &["animation 0 channel 1's values", "2 values for 3 keys"]);
}

#[test]
fn a_missing_file_is_an_io_error() {
    let device = device();
    let missing = std::env::temp_dir().join("xnagraph-no-such-model.gltf");
    assert!(matches!(Model::from_gltf(&device, missing), Err(XnaError::Io { .. })));
}
