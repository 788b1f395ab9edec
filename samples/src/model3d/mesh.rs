//! Generated geometry for the 3D sample: a UV sphere and a cube, with normals and texture
//! coordinates, as `VertexPositionNormalTexture` vertices and 16-bit triangle-list indices wound
//! clockwise as seen from outside (XNA's default `CullCounterClockwiseFace` keeps them).

use std::f32::consts::PI;

use xnagraph::{Vector2, Vector3, VertexPositionNormalTexture};

/// Vertices and triangle-list indices.
pub struct Mesh {
    /// The vertices.
    pub vertices: Vec<VertexPositionNormalTexture>,
    /// Three indices per triangle.
    pub indices: Vec<u16>,
}

impl Mesh {
    /// Triangles in the list.
    pub fn triangles(&self) -> i32 {
        (self.indices.len() / 3) as i32
    }
}

/// A sphere of `radius` around the origin: `rings` bands from pole to pole, `segments` around.
/// Texture u runs once around, v from the north pole (0) to the south pole (1).
pub fn sphere(radius: f32, rings: u16, segments: u16) -> Mesh {
    let mut vertices = Vec::new();
    for ring in 0..=rings {
        let v = f32::from(ring) / f32::from(rings);
        let (sin_t, cos_t) = (v * PI).sin_cos();
        for segment in 0..=segments {
            let u = f32::from(segment) / f32::from(segments);
            let (sin_p, cos_p) = (u * 2.0 * PI).sin_cos();
            let normal = Vector3::new(sin_t * sin_p, cos_t, sin_t * cos_p);
            vertices.push(VertexPositionNormalTexture {
                position: normal * radius,
                normal,
                texture_coordinate: Vector2::new(u, v),
            });
        }
    }
    let row = segments + 1;
    let mut indices = Vec::new();
    for ring in 0..rings {
        for segment in 0..segments {
            let a = ring * row + segment; // upper left, seen from outside
            let b = a + 1; // upper right
            let c = a + row; // lower left
            let d = c + 1; // lower right
            indices.extend([a, b, c, b, d, c]);
        }
    }
    Mesh { vertices, indices }
}

/// An axis-aligned cube of edge `size` around the origin: four vertices per face (so each face
/// has its own normal), the whole texture on every face.
pub fn cube(size: f32) -> Mesh {
    let h = size / 2.0;
    let faces = [
        Vector3::UNIT_X,
        -Vector3::UNIT_X,
        Vector3::UNIT_Y,
        -Vector3::UNIT_Y,
        Vector3::UNIT_Z,
        -Vector3::UNIT_Z,
    ];
    let mut vertices = Vec::new();
    let mut indices = Vec::new();
    for normal in faces {
        // Two edges of the face, seen from outside: right and down.
        let up = if normal.y.abs() > 0.5 { -Vector3::UNIT_Z } else { Vector3::UNIT_Y };
        let right = up.cross(normal);
        let down = -up;
        let base = vertices.len() as u16;
        for (du, dv) in [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0), (1.0, 1.0)] {
            let position = (normal + right * (2.0 * du - 1.0) + down * (2.0 * dv - 1.0)) * h;
            vertices.push(VertexPositionNormalTexture {
                position,
                normal,
                texture_coordinate: Vector2::new(du, dv),
            });
        }
        // Top left, top right, bottom left; top right, bottom right, bottom left.
        indices.extend([base, base + 1, base + 2, base + 1, base + 3, base + 2]);
    }
    Mesh { vertices, indices }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every triangle's winding, seen from outside, is clockwise: its face normal (by the
    /// left-handed cross product of screen-clockwise edges) points inwards in a right-handed
    /// world, that is (b − a) × (c − a) points against the outward normal.
    fn clockwise_from_outside(mesh: &Mesh) -> bool {
        mesh.indices.chunks(3).all(|t| {
            let [a, b, c] = [t[0], t[1], t[2]].map(|i| mesh.vertices[i as usize]);
            let n = (b.position - a.position).cross(c.position - a.position);
            let outward = a.normal + b.normal + c.normal;
            n.length() < 1e-6 || n.dot(outward) < 0.0
        })
    }

    #[test]
    fn the_meshes_face_outwards_clockwise() {
        assert!(clockwise_from_outside(&cube(2.0)));
        assert!(clockwise_from_outside(&sphere(1.0, 8, 12)));
        assert_eq!(sphere(1.0, 8, 12).triangles(), 8 * 12 * 2);
    }
}
