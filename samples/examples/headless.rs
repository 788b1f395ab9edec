use xnagraph::{
    Color, GraphicsDevice, GraphicsProfile, PresentationParameters, Rectangle, RenderTarget2D,
    SpriteBatch,
};

fn main() -> xnagraph::Result<()> {
    // A headless 64×48 back buffer on the best Vulkan adapter found.
    let params = PresentationParameters {
        back_buffer_width: 64,
        back_buffer_height: 48,
        ..PresentationParameters::default()
    };
    let device = GraphicsDevice::new(GraphicsProfile::HiDef, params)?;

    // Pass 1: a 16×16 render target cleared to cornflower blue.
    let target = RenderTarget2D::new(&device, 16, 16)?;
    device.set_render_target(Some(&target))?;
    device.clear(Color::CORNFLOWER_BLUE)?;

    // Pass 2: the back buffer cleared to black, the target drawn into it at (8, 4), 32×32.
    device.set_render_target(None)?;
    device.clear(Color::BLACK)?;
    let mut batch = SpriteBatch::new(&device)?;
    batch.begin()?;
    batch.draw_rect(&target, Rectangle::new(8, 4, 32, 32), Color::WHITE)?;
    batch.end()?;

    // Only now does anything reach the GPU: present compiles the frame and submits the plan.
    device.present()?;

    let mut pixels = vec![Color::TRANSPARENT; 64 * 48];
    device.get_back_buffer_data(None, &mut pixels, 0, 64 * 48)?;
    assert_eq!(pixels[20 * 64 + 20], Color::CORNFLOWER_BLUE, "inside the drawn rectangle");
    assert_eq!(pixels[2 * 64 + 2], Color::BLACK, "outside it");
    Ok(())
}
