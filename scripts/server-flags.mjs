// The server's Node/V8 flags, in one place: `npm start` (scripts/start.mjs) runs the server with
// them, and the benches (scripts/bench-*.ts) run the app with them too, so they measure it as it
// runs. A larger young generation: a request allocates its parsed body and documents, and with
// V8's default semi-space (16 MB) the many small collections under a submission storm cost about
// a tenth of the server's time (bench:exam).
export const SERVER_NODE_FLAGS = ['--max-semi-space-size=32'];
