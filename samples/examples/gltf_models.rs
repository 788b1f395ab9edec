//! Writes the 3D sample's generated glTF models ([`xnagraph_samples::model3d::gltf_assets`])
//! into `samples/content/models/`, where `model3d --scene gltf` loads them; run after changing
//! the generator (`cargo run -p xnagraph-samples --example gltf_models`), as the sample's test
//! compares the committed files with the generator's output.

fn main() -> std::io::Result<()> {
    let dir = xnagraph_samples::breakout::default_content_dir().join("models");
    std::fs::create_dir_all(&dir)?;
    for (name, bytes) in xnagraph_samples::model3d::gltf_assets::files() {
        std::fs::write(dir.join(name), bytes)?;
        println!("wrote {}", dir.join(name).display());
    }
    Ok(())
}
