//! Which public types may cross threads: asserted at compile time, so a change that makes a
//! type lose (or gain) `Send` or `Sync` breaks the build of this test, and the rustdoc of
//! `xnagraph` (its "Threads" section) must say so.

use static_assertions::{assert_impl_all, assert_not_impl_any};
use xnagraph::diagnostics::{BackendCall, BackendError, Diagnostics, NullProbe};
use xnagraph::game::{
    ButtonState, GameContext, GameTime, GameWindow, GraphicsDeviceManager, InputEvent, KeyState,
    Keyboard, KeyboardState, Keys, Mouse, MouseButton, MouseState,
};
use xnagraph::*;

// Resources and the device: handles to shared, internally synchronised state. A game may
// create a texture on a loading thread and draw it on the game's.
assert_impl_all!(GraphicsDevice: Send, Sync);
assert_impl_all!(Texture2D: Send, Sync);
assert_impl_all!(Texture3D: Send, Sync);
assert_impl_all!(TextureCube: Send, Sync);
assert_impl_all!(RenderTarget2D: Send, Sync);
assert_impl_all!(RenderTargetCube: Send, Sync);
assert_impl_all!(VertexBuffer: Send, Sync);
assert_impl_all!(IndexBuffer: Send, Sync);
assert_impl_all!(DynamicVertexBuffer: Send, Sync);
assert_impl_all!(DynamicIndexBuffer: Send, Sync);
assert_impl_all!(OcclusionQuery: Send, Sync);
assert_impl_all!(Effect: Send, Sync);
assert_impl_all!(CustomEffect: Send, Sync);
assert_impl_all!(SpriteFont: Send, Sync);
assert_impl_all!(DeviceEvents: Send, Sync);
assert_impl_all!(Event<ResourceEventArgs>: Send, Sync);
// Objects a game calls with `&mut self`: movable to another thread, not shared.
assert_impl_all!(SpriteBatch: Send, Sync);
assert_impl_all!(BasicEffect: Send, Sync);
assert_impl_all!(AlphaTestEffect: Send, Sync);
assert_impl_all!(DualTextureEffect: Send, Sync);
// A model: its effects behind locks (`ModelEffect`), so a shared `Arc<Model>` draws from any
// thread; its bones and tags change through `&mut`.
assert_impl_all!(Model: Send, Sync);
assert_impl_all!(ModelMesh: Send, Sync);
assert_impl_all!(ModelMeshPart: Send, Sync);
assert_impl_all!(ModelBone: Send, Sync);
assert_impl_all!(ModelEffect: Send, Sync);
// Borrowed views of a stock effect, through its trait object: they stay on the thread that
// borrowed the effect (neither `Send` nor `Sync`), which is all a pass's `apply` needs.
assert_not_impl_any!(EffectTechnique<'static>: Send, Sync);
assert_not_impl_any!(EffectPass<'static>: Send, Sync);
assert_not_impl_any!(EffectParameterCollection<'static>: Send, Sync);
assert_not_impl_any!(StockParameter<'static>: Send, Sync);
// Borrowed views of a custom effect or a binding.
assert_impl_all!(CustomTechnique<'static>: Send, Sync);
assert_impl_all!(CustomPass<'static>: Send, Sync);
assert_impl_all!(EffectParameter<'static>: Send, Sync);
assert_impl_all!(VertexBufferBinding<'static>: Send, Sync);
assert_impl_all!(RenderTargetBinding<'static>: Send, Sync);
assert_impl_all!(BindingTarget<'static>: Send, Sync);
// Borrowed views of the device's collections.
assert_impl_all!(TextureCollection<'static>: Send, Sync);
assert_impl_all!(SamplerStateCollection<'static>: Send, Sync);
// Plain values.
assert_impl_all!(XnaError: Send, Sync);
assert_impl_all!(Color: Send, Sync);
assert_impl_all!(Vector2: Send, Sync);
assert_impl_all!(Vector3: Send, Sync);
assert_impl_all!(Vector4: Send, Sync);
assert_impl_all!(Matrix: Send, Sync);
assert_impl_all!(Rectangle: Send, Sync);
assert_impl_all!(Viewport: Send, Sync);
assert_impl_all!(BlendState: Send, Sync);
assert_impl_all!(SamplerState: Send, Sync);
assert_impl_all!(DepthStencilState: Send, Sync);
assert_impl_all!(RasterizerState: Send, Sync);
assert_impl_all!(ColorWriteChannels: Send, Sync);
assert_impl_all!(SpriteEffects: Send, Sync);
assert_impl_all!(SpriteSortMode: Send, Sync);
assert_impl_all!(PresentationParameters: Send, Sync);
assert_impl_all!(DeviceOptions: Send, Sync);
assert_impl_all!(FontOptions: Send, Sync);
assert_impl_all!(LoadOptions: Send, Sync);
assert_impl_all!(CaptureSummary: Send, Sync);
assert_impl_all!(Capabilities: Send, Sync);
assert_impl_all!(VertexDeclaration: Send, Sync);
assert_impl_all!(VertexElement: Send, Sync);
assert_impl_all!(VertexPositionColor: Send, Sync);
assert_impl_all!(VertexPositionColorTexture: Send, Sync);
assert_impl_all!(VertexPositionNormalTexture: Send, Sync);
assert_impl_all!(VertexPositionTexture: Send, Sync);
assert_impl_all!(DirectionalLight: Send, Sync);
assert_impl_all!(EffectAnnotation: Send, Sync);
assert_impl_all!(AnnotationValue: Send, Sync);
assert_impl_all!(ResourceId: Send, Sync);
assert_impl_all!(ResourceEventArgs: Send, Sync);
assert_impl_all!(HandlerId: Send, Sync);
assert_impl_all!(GpuFrameTiming: Send, Sync);
assert_impl_all!(LiveObjects: Send, Sync);
assert_impl_all!(PlanCost: Send, Sync);
assert_impl_all!(PresentStats: Send, Sync);
assert_impl_all!(Diagnostics: Send, Sync);
assert_impl_all!(NullProbe: Send, Sync);
assert_impl_all!(BackendCall: Send, Sync);
assert_impl_all!(BackendError: Send, Sync);
assert_impl_all!(PassSource<'static>: Send, Sync);
assert_impl_all!(TechniqueSource<'static>: Send, Sync);
assert_impl_all!(ParameterClass: Send, Sync);
assert_impl_all!(ParameterType: Send, Sync);
assert_impl_all!(IndexElementSize: Send, Sync);
assert_impl_all!(BufferUsage: Send, Sync);
assert_impl_all!(SetDataOptions: Send, Sync);
assert_impl_all!(VertexElementFormat: Send, Sync);
assert_impl_all!(VertexElementUsage: Send, Sync);
assert_impl_all!(CubeMapFace: Send, Sync);
assert_impl_all!(ClearOptions: Send, Sync);
assert_impl_all!(BackendKind: Send, Sync);
assert_impl_all!(PresentInterval: Send, Sync);
assert_impl_all!(TextureIndexing: Send, Sync);
assert_impl_all!(GraphicsProfile: Send, Sync);
assert_impl_all!(Blend: Send, Sync);
assert_impl_all!(BlendFunction: Send, Sync);
assert_impl_all!(CompareFunction: Send, Sync);
assert_impl_all!(CullMode: Send, Sync);
assert_impl_all!(DepthFormat: Send, Sync);
assert_impl_all!(FillMode: Send, Sync);
assert_impl_all!(FormatSupport: Send, Sync);
assert_impl_all!(PresentCounters: Send, Sync);
assert_impl_all!(PrimitiveType: Send, Sync);
assert_impl_all!(RenderTargetUsage: Send, Sync);
assert_impl_all!(StencilOperation: Send, Sync);
assert_impl_all!(SurfaceFormat: Send, Sync);
assert_impl_all!(TextureAddressMode: Send, Sync);
assert_impl_all!(TextureFilter: Send, Sync);
assert_impl_all!(CompilePolicy: Send, Sync);
assert_impl_all!(GpuNodeTime: Send, Sync);
assert_impl_all!(GpuTimingSupport: Send, Sync);
// The game loop's types.
assert_impl_all!(GameTime: Send, Sync);
assert_impl_all!(GameWindow: Send, Sync);
assert_impl_all!(GraphicsDeviceManager: Send, Sync);
assert_impl_all!(GameContext: Send, Sync);
assert_impl_all!(Keys: Send, Sync);
assert_impl_all!(KeyboardState: Send, Sync);
assert_impl_all!(MouseState: Send, Sync);
assert_impl_all!(InputEvent: Send, Sync);
assert_impl_all!(ButtonState: Send, Sync);
assert_impl_all!(KeyState: Send, Sync);
assert_impl_all!(MouseButton: Send, Sync);
assert_impl_all!(Keyboard: Send, Sync);
assert_impl_all!(Mouse: Send, Sync);
