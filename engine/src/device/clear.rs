//! `ClearOptions`: which buffers `GraphicsDevice::clear_with` clears.

bitflags::bitflags! {
    /// XNA's `ClearOptions` flags. `ClearOptions::empty()` clears nothing and
    /// `ClearOptions::all()` clears every buffer; a requested buffer the current target lacks
    /// (depth or stencil) is skipped, as in XNA.
    #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
    pub struct ClearOptions: u8 {
        /// `ClearOptions.Target`: the colour buffers.
        const TARGET = 1;
        /// `ClearOptions.DepthBuffer`: the depth buffer.
        const DEPTH_BUFFER = 2;
        /// `ClearOptions.Stencil`: the stencil buffer.
        const STENCIL = 4;
    }
}
