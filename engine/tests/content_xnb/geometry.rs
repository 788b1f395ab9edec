//! `VertexDeclarationReader`, `VertexBufferReader` and `IndexBufferReader`: declarations,
//! vertex and index buffers loaded through `ContentManager`, every element, vertex and index
//! read back, the element enums numbered as XNA 4.0 numbers them.

use super::*;
use xnagraph::{
    IndexBuffer, IndexElementSize, VertexBuffer, VertexDeclaration, VertexElement,
    VertexElementFormat, VertexElementUsage, VertexPositionColorTexture, VertexType,
};

/// XNA 4.0's `VertexElementFormat` in the order of its values, as XNA documents them (0 to 11).
const XNA_FORMATS: [VertexElementFormat; 12] = {
    use VertexElementFormat::*;
    [
        Single,
        Vector2,
        Vector3,
        Vector4,
        Color,
        Byte4,
        Short2,
        Short4,
        NormalizedShort2,
        NormalizedShort4,
        HalfVector2,
        HalfVector4,
    ]
};

/// XNA 4.0's `VertexElementUsage` in the order of its values (0 to 12).
const XNA_USAGES: [VertexElementUsage; 13] = {
    use VertexElementUsage::*;
    [
        Position,
        Color,
        TextureCoordinate,
        Normal,
        Binormal,
        Tangent,
        BlendIndices,
        BlendWeight,
        Depth,
        Fog,
        PointSize,
        Sample,
        TessellateFactor,
    ]
};

#[test]
fn vertex_element_numbers_are_xna_4s() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("element-numbers");
    // One element per usage number, the format numbers cycling, packed one after another.
    let mut elements = Vec::new();
    let mut want = Vec::new();
    let mut offset = 0;
    for (usage, xna_usage) in XNA_USAGES.into_iter().enumerate() {
        let format = usage % XNA_FORMATS.len();
        let xna_format = XNA_FORMATS[format];
        let element =
            Element { offset, format: format as i32, usage: usage as i32, usage_index: 0 };
        elements.push(element);
        want.push(VertexElement::new(offset, xna_format, xna_usage, 0));
        offset += xna_format.size();
    }
    let body = asset_body(&["VertexDeclarationReader"], |b| declaration_data(b, offset, &elements));
    write(&dir, "numbers", &xnb(&body));
    let content = ContentManager::new(&device, &dir);
    let declaration = content.load::<VertexDeclaration>("numbers").unwrap();
    assert_eq!(declaration.vertex_elements(), want.as_slice());
    assert_eq!(declaration.vertex_stride(), offset as i32);
}

#[test]
fn a_vertex_declaration_keeps_the_files_stride_and_element_order() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("declaration");
    // Listed out of offset order, with usage indices, and a stride past the last element.
    let e = |offset, format: VertexElementFormat, usage: VertexElementUsage, usage_index| Element {
        offset,
        format: format as i32,
        usage: usage as i32,
        usage_index,
    };
    use VertexElementFormat as F;
    use VertexElementUsage as U;
    let elements = [
        e(12, F::Color, U::Color, 1),
        e(0, F::Vector3, U::Position, 0),
        e(24, F::NormalizedShort4, U::Tangent, 2),
        e(16, F::Vector2, U::TextureCoordinate, 3),
        e(32, F::HalfVector4, U::BlendWeight, 0),
        e(40, F::Byte4, U::BlendIndices, 0),
    ];
    let body = asset_body(&["VertexDeclarationReader"], |b| declaration_data(b, 48, &elements));
    write(&dir, "declaration", &xnb(&body));
    let content = ContentManager::new(&device, &dir);
    let declaration = content.load::<VertexDeclaration>("declaration").unwrap();
    assert_eq!(declaration.vertex_stride(), 48);
    let want = [
        VertexElement::new(12, F::Color, U::Color, 1),
        VertexElement::new(0, F::Vector3, U::Position, 0),
        VertexElement::new(24, F::NormalizedShort4, U::Tangent, 2),
        VertexElement::new(16, F::Vector2, U::TextureCoordinate, 3),
        VertexElement::new(32, F::HalfVector4, U::BlendWeight, 0),
        VertexElement::new(40, F::Byte4, U::BlendIndices, 0),
    ];
    assert_eq!(declaration.vertex_elements(), want);
}

/// Five distinct vertices of XNA's `VertexPositionColorTexture`.
pub fn vertices() -> Vec<VertexPositionColorTexture> {
    (0..5)
        .map(|i| {
            let f = i as f32;
            VertexPositionColorTexture {
                position: xnagraph::Vector3::new(f, -2.0 * f, 0.5 + f),
                color: Color::new(10 + i, 200 - i, 7 * i, 255 - i),
                texture_coordinate: Vector2::new(0.25 * f, 1.0 - 0.125 * f),
            }
        })
        .collect()
}

/// `VertexPositionColorTexture`'s declaration as the content pipeline writes it.
pub fn position_color_texture() -> [Element; 3] {
    [
        Element { offset: 0, format: 2, usage: 0, usage_index: 0 },
        Element { offset: 12, format: 4, usage: 1, usage_index: 0 },
        Element { offset: 16, format: 1, usage: 2, usage_index: 0 },
    ]
}

#[test]
fn a_vertex_buffer_reads_its_declaration_inline_and_every_vertex() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("vertex-buffer");
    let vertices = vertices();
    let bytes: &[u8] = xnagraph::bytemuck::cast_slice(&vertices);
    let data = |b: &mut Body| vertex_buffer_data(b, 24, &position_color_texture(), bytes);
    // XNA's writer lists the declaration's reader beside the buffer's; reading does not need it.
    write(
        &dir,
        "listed",
        &xnb(&asset_body(&["VertexBufferReader", "VertexDeclarationReader"], data)),
    );
    write(&dir, "unlisted", &xnb(&asset_body(&["VertexBufferReader"], data)));
    let content = ContentManager::new(&device, &dir);
    for name in ["listed", "unlisted"] {
        let buffer = content.load::<VertexBuffer>(name).unwrap();
        assert_eq!(buffer.vertex_count(), 5, "{name}");
        assert_eq!(buffer.vertex_declaration(), &VertexPositionColorTexture::vertex_declaration());
        let mut all = vec![VertexPositionColorTexture::default(); 5];
        buffer.get_data(&mut all).unwrap();
        assert_eq!(all, vertices, "{name}");
        // Vertices 2 and 3 only, read from their byte offset.
        let mut two = vec![VertexPositionColorTexture::default(); 2];
        buffer.get_data_full(2 * 24, &mut two, 0, 2, 0).unwrap();
        assert_eq!(two, vertices[2..4], "{name}");
    }
}

#[test]
fn index_buffers_read_sixteen_and_thirty_two_bit_indices() {
    let _v = Validation::new();
    let device = device(8, 8);
    let dir = content_dir("index-buffer");
    let short: [u16; 7] = [0, 1, 2, 700, 65535, 3, 42];
    let long: [u32; 5] = [0, 70_000, 5, 0xDEAD_BEEF, 9];
    let short_bytes: Vec<u8> = short.iter().flat_map(|i| i.to_le_bytes()).collect();
    let long_bytes: Vec<u8> = long.iter().flat_map(|i| i.to_le_bytes()).collect();
    let body = asset_body(&["IndexBufferReader"], |b| index_buffer_data(b, true, &short_bytes));
    write(&dir, "short", &xnb(&body));
    let body = asset_body(&["IndexBufferReader"], |b| index_buffer_data(b, false, &long_bytes));
    write(&dir, "long", &xnb(&body));
    let content = ContentManager::new(&device, &dir);

    let s = content.load::<IndexBuffer>("short").unwrap();
    assert_eq!((s.index_element_size(), s.index_count()), (IndexElementSize::SixteenBits, 7));
    let mut all = [0u16; 7];
    s.get_data(&mut all).unwrap();
    assert_eq!(all, short);
    let mut mid = [0u16; 3];
    s.get_data_full(3 * 2, &mut mid, 0, 3).unwrap();
    assert_eq!(mid, short[3..6]);

    let l = content.load::<IndexBuffer>("long").unwrap();
    assert_eq!((l.index_element_size(), l.index_count()), (IndexElementSize::ThirtyTwoBits, 5));
    let mut all = [0u32; 5];
    l.get_data(&mut all).unwrap();
    assert_eq!(all, long);
    let mut mid = [0u32; 2];
    l.get_data_full(4, &mut mid, 0, 2).unwrap();
    assert_eq!(mid, long[1..3]);
}
