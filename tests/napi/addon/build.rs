// napi-build links emnapi's C part and sets the wasm link flags napi-rs addons use.
fn main() {
    napi_build::setup();
}
