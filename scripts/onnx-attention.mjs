// The tiny ONNX graph of scaled dot-product attention that the benchmark gives onnxruntime-web:
// O = Softmax(MatMul(Q, Transpose(K)) / √d) · V, in float32, for fixed shapes Q n×d, K m×d,
// V m×dv. The protobuf bytes are written here by hand (a few dozen lines), so that the benchmark
// needs no ONNX tooling and downloads nothing.
//
// Protobuf wire format: every field is a key (field number << 3 | wire type) followed by a
// varint (type 0), 4 bytes (type 5) or a length and that many bytes (type 2: strings, nested
// messages, packed numbers). Field numbers are those of onnx.proto (ONNX IR version 8).

const VARINT = 0;
const BYTES = 2;

function varint(value) {
  const out = [];
  let v = BigInt(value);
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return out;
}

const utf8 = new TextEncoder();
const key = (field, wire) => varint((field << 3) | wire);
// A field whose value is a number (int32, int64, enum).
const number = (field, value) => [...key(field, VARINT), ...varint(value)];
// A field whose value is bytes: a string, a nested message (an array of bytes) or packed floats.
function bytes(field, value) {
  const body = typeof value === 'string' ? [...utf8.encode(value)] : [...value];
  return [...key(field, BYTES), ...varint(body.length), ...body];
}

const FLOAT = 1; // TensorProto.DataType
const ATTRIBUTE_INTS = 7; // AttributeProto.AttributeType

// ValueInfoProto { name = 1, type = 2 { tensor_type = 1 { elem_type = 1, shape = 2 { dim = 1 { dim_value = 1 } } } } }
function tensorInfo(name, dims) {
  const shape = dims.flatMap((d) => bytes(1, number(1, d)));
  const tensorType = [...number(1, FLOAT), ...bytes(2, shape)];
  return [...bytes(1, name), ...bytes(2, bytes(1, tensorType))];
}

// NodeProto { input = 1, output = 2, name = 3, op_type = 4, attribute = 5 }
function node(opType, inputs, outputs, attributes = []) {
  return [
    ...inputs.flatMap((name) => bytes(1, name)),
    ...outputs.flatMap((name) => bytes(2, name)),
    ...bytes(3, `${opType}_${outputs[0]}`),
    ...bytes(4, opType),
    ...attributes.flatMap((a) => bytes(5, a)),
  ];
}

// AttributeProto { name = 1, ints = 8, type = 20 }
const intsAttribute = (name, values) => [...bytes(1, name), ...values.flatMap((v) => number(8, v)), ...number(20, ATTRIBUTE_INTS)];

// TensorProto { dims = 1, data_type = 2, float_data = 4 (packed), name = 8 }: a float32 scalar.
function scalar(name, value) {
  const data = new Uint8Array(new Float32Array([value]).buffer);
  return [...number(2, FLOAT), ...bytes(4, data), ...bytes(8, name)];
}

/**
 * The model's bytes: inputs Q (n×d), K (m×d), V (m×dv), float32; output O (n×dv).
 * Nodes: Transpose(K), MatMul(Q, Kᵀ), Div by √d (an initializer), Softmax over the last axis,
 * MatMul(weights, V). Opset 13.
 */
export function attentionModel(n, m, d, dv = d) {
  const graph = [
    ...bytes(1, node('Transpose', ['K'], ['Kt'], [intsAttribute('perm', [1, 0])])),
    ...bytes(1, node('MatMul', ['Q', 'Kt'], ['scores'])),
    ...bytes(1, node('Div', ['scores', 'root_d'], ['scaled'])),
    ...bytes(1, node('Softmax', ['scaled'], ['weights'])),
    ...bytes(1, node('MatMul', ['weights', 'V'], ['O'])),
    ...bytes(2, 'attention'),
    ...bytes(5, scalar('root_d', Math.sqrt(d))),
    ...bytes(11, tensorInfo('Q', [n, d])),
    ...bytes(11, tensorInfo('K', [m, d])),
    ...bytes(11, tensorInfo('V', [m, dv])),
    ...bytes(12, tensorInfo('O', [n, dv])),
  ];
  const model = [
    ...number(1, 8), // ir_version
    ...bytes(2, 'attention-lab bench'), // producer_name
    ...bytes(7, graph),
    ...bytes(8, [...bytes(1, ''), ...number(2, 13)]), // opset_import: the default domain, opset 13
  ];
  return Uint8Array.from(model);
}
