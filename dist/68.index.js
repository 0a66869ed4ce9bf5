export const id = 68;
export const ids = [68];
export const modules = {

/***/ 11068:
/***/ ((__unused_webpack_module, __webpack_exports__, __webpack_require__) => {

__webpack_require__.r(__webpack_exports__);
/* harmony export */ __webpack_require__.d(__webpack_exports__, {
/* harmony export */   createMcpSession: () => (/* binding */ createMcpSession),
/* harmony export */   createMcpSessionServer: () => (/* binding */ createMcpSessionServer)
/* harmony export */ });
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0__ = __webpack_require__(77598);
/* harmony import */ var node_crypto__WEBPACK_IMPORTED_MODULE_0___default = /*#__PURE__*/__webpack_require__.n(node_crypto__WEBPACK_IMPORTED_MODULE_0__);
/* harmony import */ var _modelcontextprotocol_sdk_server_index_js__WEBPACK_IMPORTED_MODULE_1__ = __webpack_require__(24619);
/* harmony import */ var _modelcontextprotocol_sdk_server_streamableHttp_js__WEBPACK_IMPORTED_MODULE_2__ = __webpack_require__(90262);
/* harmony import */ var _modelcontextprotocol_sdk_types_js__WEBPACK_IMPORTED_MODULE_3__ = __webpack_require__(63846);
/* harmony import */ var _approval_prompt_tool_js__WEBPACK_IMPORTED_MODULE_4__ = __webpack_require__(10275);





/**
 * A new session's transport (its id from `randomUUID`, `onInitialized` called once `initialize` gave
 * it one) and server. This module holds every use of the MCP SDK, so that `startMcpServer` loads it
 * (`import()`, its own chunk in the bundles) while the agent starts, not before.
 */
function createMcpSession(options, onInitialized) {
    const transport = new _modelcontextprotocol_sdk_server_streamableHttp_js__WEBPACK_IMPORTED_MODULE_2__/* .StreamableHTTPServerTransport */ .D({
        sessionIdGenerator: node_crypto__WEBPACK_IMPORTED_MODULE_0__.randomUUID,
        onsessioninitialized: onInitialized,
    });
    return { transport, server: createMcpSessionServer(options) };
}
/**
 * The MCP server of one session (the SDK binds one `Server` to one transport): `tools/list` is the
 * host's tools (plus `approval_prompt`), `tools/call` runs them through the host. A refused or failed
 * call is a result with `isError: true` and the host's reason, never a protocol error, so the agent
 * reads why. The call's `toolCallId` is the JSON-RPC request id.
 */
function createMcpSessionServer(options) {
    const { host, approvalPrompt } = options;
    const server = new _modelcontextprotocol_sdk_server_index_js__WEBPACK_IMPORTED_MODULE_1__/* .Server */ .g({ name: options.name, version: options.version }, { capabilities: { tools: {} } });
    server.setRequestHandler(_modelcontextprotocol_sdk_types_js__WEBPACK_IMPORTED_MODULE_3__/* .ListToolsRequestSchema */ .gW, () => {
        // `Tool` wants `inputSchema.type: 'object'`; zod objects give it, and the client checks the list anyway.
        const tools = host.list().map((tool) => ({ ...tool }));
        if (approvalPrompt !== undefined)
            tools.push({ ...approvalPrompt.description });
        return { tools };
    });
    server.setRequestHandler(_modelcontextprotocol_sdk_types_js__WEBPACK_IMPORTED_MODULE_3__/* .CallToolRequestSchema */ .FT, async (request, extra) => {
        const { name, arguments: input } = request.params;
        const signal = AbortSignal.any([extra.signal, options.signal]);
        if (approvalPrompt !== undefined && name === _approval_prompt_tool_js__WEBPACK_IMPORTED_MODULE_4__/* .approvalPromptToolName */ .T) {
            return toCallToolResult(await approvalPrompt.call(input, signal));
        }
        const toolCallId = extra.sessionId === undefined ? String(extra.requestId) : `${extra.sessionId}:${extra.requestId}`;
        const result = await host.call(name, input, { toolCallId, signal });
        return toCallToolResult(replyFor(result));
    });
    return server;
}
function replyFor(result) {
    return result.ok ? { text: valueText(result.value), isError: false } : { text: result.error, isError: true };
}
function toCallToolResult(reply) {
    return { content: [{ type: 'text', text: reply.text }], isError: reply.isError };
}
/** A string as is; anything else as JSON (`undefined` as an empty text). */
function valueText(value) {
    if (typeof value === 'string')
        return value;
    if (value === undefined)
        return '';
    try {
        return JSON.stringify(value) ?? String(value);
    }
    catch {
        return String(value);
    }
}


/***/ })

};

//# sourceMappingURL=68.index.js.map