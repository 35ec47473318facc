/**
 * The `errors` namespace: request failures (spec 8.1), backend codes (spec 8.2 and schemas/errors.ts),
 * other failure messages (spec 8.3), client-side failures and the route error screen.
 */
const errors = {
  /** Reaction texts by HTTP status (spec 8.1). */
  status: {
    '400': '请求错误',
    '401': '登录已过期，请重新登录',
    '403': '没有权限',
    '404': '请求的资源不存在',
    '405': '当前 HTTP 请求方法已被禁用',
    '500': '服务器开了个小差，工程师正在紧急修复',
    '501': '该功能暂未开放',
    '502': '网络不稳定，请稍后重试',
    '503': '服务器正在维护，请稍后再试',
    '504': '请求超时，请检查网络',
    '4xx': '请求失败',
    '5xx': '服务暂时离开了，请稍后再试',
  },
  /** One text per backend code (schemas/errors.ts). */
  codes: {
    'VALIDATION-1000': '参数错误',
    'VALIDATION-1001': '数据已存在',
    'VALIDATION-1002': '新建的数据不能包含 ID',
    'VALIDATION-1003': '更新的数据必须包含 ID',
    'VALIDATION-1004': '删除的数据必须包含 ID',
    'VALIDATION-1005': '查询的数据必须包含 ID',
    'VALIDATION-1006': '数据不存在',
    'VALIDATION-1007': '导出数量超过上限',
    'VALIDATION-1008': '缺少请求头',
    'VALIDATION-1009': '每页条数超过上限',
    'VALIDATION-1010': '删除数量超过上限',
    'VALIDATION-1011': '查询结果不唯一',
    'VALIDATION-1012': '除 ID 外的表单数据不能全部为空',
    'AUTH-1001': '登录已过期，请重新登录',
    'AUTH-1002': '登录失败：账号或密码错误',
    'AUTH-1003': '账号或其租户已被停用',
    'AUTH-1004': '登录已过期，请重新登录',
    'AUTH-1005': '原密码不正确',
    'PERMISSION-1000': '没有权限',
    'CONFLICT-1000': '内容已被他人更新，请重新加载或覆盖',
    'SYSTEM-1404': '请求的接口不存在',
    'SYSTEM-1405': '当前 HTTP 请求方法已被禁用',
    'SYSTEM-1500': '服务器开了个小差，工程师正在紧急修复',
    // The outbound network policy and stdio MCP servers (src/server/security/outbound-policy.ts).
    'NETWORK-1000': '服务器的网络策略不允许连接该地址（回环、内网、链路本地或云元数据地址需由运维人员放行）',
    'NETWORK-1001': '无法连接到目标地址',
    'MCP-1000': '本服务器不允许启动该 stdio MCP 服务（命令需由运维人员放行）；请改用远程 MCP 服务（Streamable HTTP / SSE）',
    // 引擎的运行与节点错误（src/engine/errors.ts RUN_ERRORS），显示在运行追踪里。
    'RUN-1000': '流程没有通过检查',
    'RUN-1001': '流程没有开始节点',
    'RUN-1002': '流程有多个开始节点',
    'RUN-1003': '节点在循环之外形成了环',
    'RUN-1004': '有节点无法从开始节点到达',
    'RUN-1005': '此服务器无法运行这种节点',
    'RUN-1006': '迭代或循环内部没有开始节点',
    'RUN-1007': '有连线连接了不存在或不在同一容器中的节点',
    'RUN-1100': '节点运行失败',
    'RUN-1101': '节点运行超过了时间限制',
    'RUN-1102': '节点返回的不是输出',
    'RUN-1103': '节点写入了它不能修改的变量',
    'RUN-1104': '迭代的某一轮失败',
    'RUN-1105': '迭代收到的不是列表',
    'RUN-1200': '运行已停止',
    'RUN-1201': '因其它节点失败而中止',
    'RUN-1300': '运行的步数超过上限',
    'RUN-1301': '容器嵌套层数太多',
    'RUN-1302': '运行超过了时间限制',
    // 工作流工具（src/server/tools/workflow-run.ts WORKFLOW_RUN_ERRORS），出现在运行和节点的错误里。
    'TOOL-WORKFLOW-NOT-RUNNABLE': '工作流工具只能在应用的运行中调用',
    'TOOL-WORKFLOW-APP-MISSING': '此工具的工作流应用在当前项目空间中已不存在',
    'TOOL-WORKFLOW-UNPUBLISHED': '此工具的工作流应用还没有发布的版本，请先发布',
    'TOOL-WORKFLOW-RECURSION': '工作流不能直接或通过其它工作流工具调用自己',
    'TOOL-WORKFLOW-DEPTH': '工作流工具相互嵌套的层数太多',
    'TOOL-WORKFLOW-INPUT': '工作流工具的输入与其开始节点的表单不符',
    'TOOL-WORKFLOW-INVALID': '此工具发布的工作流无法运行',
    'TOOL-WORKFLOW-FAILED': '此工具的工作流运行失败',
  },
  /** Failures detected in the browser (no answer from the server, or rejected before the call). */
  client: {
    network: '网络连接失败，请检查网络后重试',
    timeout: '请求超时，请稍后重试',
    badResponse: '服务器返回了无法识别的数据',
    invalidInput: '请求参数不完整',
    transferMissingIds: '转移所有权需要项目 ID 和成员 ID',
    unknown: '发生未知错误',
  },
  /** Messages the screens show when an action fails (spec 8.3). */
  ops: {
    loginFailed: '登录失败',
    socialLoginFailed: '第三方登录失败',
    operationFailed: '操作失败',
    saveFailed: '保存失败',
    canvasLoadFailed: '画布加载失败',
    optimizationFailed: '优化失败',
    vectorAnalysisFailed: '向量解析失败，请重新解析',
  },
  /** An id-based page answered VALIDATION-1000 (spec 6). */
  unauthorizedOperation: '无权操作',
  /** The route error screen (spec 2 "Error screen"); keys under notFound match RouteErrorType. */
  notFound: {
    workspace: '项目不存在或已被删除',
  },
  page: {
    permissionDenied: '没有权限',
    notFound: '页面不存在',
    cannotView: '该内容无法查看',
    errorId: 'ID：{{id}}',
  },
};

export default errors;
