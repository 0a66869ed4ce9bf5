export const id = 304;
export const ids = [304];
export const modules = {

/***/ 85304:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

// ESM COMPAT FLAG
__webpack_require__.r(__webpack_exports__);

// EXPORTS
__webpack_require__.d(__webpack_exports__, {
  PROTOCOL_VERSION: () => (/* reexport */ acp/* PROTOCOL_VERSION */.WP),
  connectAcpClient: () => (/* binding */ connectAcpClient)
});

// EXTERNAL MODULE: ./node_modules/@agentclientprotocol/sdk/dist/v1/stable/acp.js + 10 modules
var acp = __webpack_require__(68366);
// EXTERNAL MODULE: external "node:path"
var external_node_path_ = __webpack_require__(76760);
// EXTERNAL MODULE: ./src/core/tools/call-tool-reported.ts
var call_tool_reported = __webpack_require__(87168);
// EXTERNAL MODULE: ./src/adapters/shared/record-fields.ts
var record_fields = __webpack_require__(36049);
;// CONCATENATED MODULE: ./src/adapters/protocols/acp/acp-files.ts




/** Most bytes one `fs/read_text_file` returns (the tool's pages are joined up to this). */
const MAX_READ_BYTES = 16 * 1024 * 1024;
/**
 * `fs/read_text_file`: the run's `read_file` tool (policy, workspace confinement), shown as a tool
 * call; `line` (1-based) and `limit` cut the text the agent gets.
 */
async function readTextFile(params, ctx) {
    let content = '';
    let offset = 0;
    const path = workspacePath(params.path, ctx.cwd);
    for (;;) {
        const value = await callTool(ctx, 'read_file', { path, offset });
        const page = (0,record_fields/* isObj */.sA)(value) && typeof value.content === 'string' ? value.content : '';
        content += page;
        const truncated = (0,record_fields/* isObj */.sA)(value) && value.truncated === true;
        offset += Buffer.byteLength(page, 'utf8');
        if (!truncated || page === '' || offset >= MAX_READ_BYTES)
            break;
    }
    return { content: sliceLines(content, params.line ?? undefined, params.limit ?? undefined) };
}
/** `fs/write_text_file`: the run's `write_file` tool, an approvable and visible tool call. */
async function writeTextFile(params, ctx) {
    await callTool(ctx, 'write_file', { path: workspacePath(params.path, ctx.cwd), content: params.content });
    return {};
}
/** A path inside the workspace relative to it; anything else is passed on for the tool to refuse. */
function workspacePath(path, cwd) {
    if (!(0,external_node_path_.isAbsolute)(path))
        return path;
    const rel = (0,external_node_path_.relative)(cwd, path);
    if (rel === '' || rel === '..' || rel.startsWith(`..${external_node_path_.sep}`) || (0,external_node_path_.isAbsolute)(rel))
        return path;
    return rel;
}
/** Lines `line` (1-based) to `line + limit - 1` of `text`. */
function sliceLines(text, line, limit) {
    if (line === undefined && limit === undefined)
        return text;
    const lines = text.split('\n');
    const start = Math.max(0, (line ?? 1) - 1);
    const end = limit === undefined ? lines.length : start + Math.max(0, limit);
    return lines.slice(start, end).join('\n');
}
async function callTool(ctx, toolName, input) {
    const toolCallId = ctx.nextId();
    ctx.emit({ type: 'tool_call_start', toolCallId, toolName });
    ctx.emit({ type: 'tool_call_ready', toolCallId, toolName, input });
    const result = await (0,call_tool_reported/* callToolReported */.y)(ctx.tools, ctx.emit, { toolCallId, toolName, input, signal: ctx.signal });
    if (!result.ok)
        throw acp/* RequestError */.GI.internalError(undefined, result.error);
    return result.value;
}

// EXTERNAL MODULE: ./src/adapters/protocols/acp/acp-permission.ts + 1 modules
var acp_permission = __webpack_require__(84367);
;// CONCATENATED MODULE: ./src/adapters/protocols/acp/acp-client-app.ts




/**
 * The SDK's `ClientApp` connected over `stream`: permission requests go to `answerPermission`,
 * file requests to the run's tool host. Loaded on first use (`import()`), so that runs of agents
 * that do not speak ACP never load the SDK, and ACP runs load it while the agent starts.
 */
function connectAcpClient(stream, handlers) {
    const { permission, files, track, asking } = handlers;
    const { reasonFor, ...answer } = permission;
    return ((0,acp/* client */.Sn)()
        .onRequest('session/request_permission', ({ params }) => asking((0,acp_permission/* answerPermission */.KI)(params, {
        ...answer,
        ...(reasonFor ? { reasonFor: (toolCallId) => reasonFor(params.sessionId, toolCallId) } : {}),
    })))
        .onRequest('fs/read_text_file', ({ params }) => track(readTextFile(params, files)))
        .onRequest('fs/write_text_file', ({ params }) => track(writeTextFile(params, files)))
        // The translator reports updates from the same lines; they do not reach the SDK.
        .onNotification('session/update', () => undefined)
        .connect(stream));
}


/***/ })

};

//# sourceMappingURL=304.index.js.map