/**
 * The `param` namespace: the parameter table of tool functions (spec 3 "Parameter row", 4, 5).
 * Data types and body subtypes are technical names, the same in both languages.
 */
const param = {
  tableLabel: {
    params: '请求参数',
    headers: '请求头',
    body: '请求体',
    response: '响应参数',
  },
  columns: {
    param_name: '参数名称',
    param_key: '字段键',
    request_type: '参数位置',
    data_type: '字段类型',
    is_array: '数组',
    is_not_null: '必填',
    default_value: '默认值',
    description: '描述',
    optional_values: '可选值',
    param_value: '值',
    headerType: '类型',
    headerDataType: '数据类型',
    actions: '操作',
  },
  placeholders: {
    param_name: '显示名称',
    param_key: '字母、数字、下划线',
    default_value: '默认值',
    description: '参数说明',
    optional_values: '多个值用逗号分隔',
    headerType: '如 Content-Type',
    param_value: '请求头的值',
    data_type: '选择类型',
  },
  requestTypes: {
    query_params: '查询',
    query_path: '路径',
  },
  dataTypes: {
    string: 'string',
    integer: 'integer',
    long: 'long',
    decimal: 'decimal',
    timestamp: 'timestamp',
    datetime: 'datetime',
    boolean: 'boolean',
    object: 'object',
  },
  subtypes: {
    label: '请求体类型',
    'form-data': 'form-data',
    'x-www-form-urlencoded': 'x-www-form-urlencoded',
    json: 'json',
    query_string: 'query_string',
    path: 'path',
  },
  subtypeHints: {
    query_string: '这些字段会追加到 URL 的查询参数中（任何请求方法都适用，不发送请求体）。',
    path: '每个字段替换 URL 路径中的 {key} 占位符（不发送请求体）。',
  },
  actions: {
    add: '添加参数',
    addChild: '添加子参数',
    insertAfter: '在下方插入参数',
    delete: '删除参数',
    expand: '展开',
    collapse: '收起',
  },
  hints: {
    lockedKey: '请求体根字段 data 的 Key 不可修改',
    lockedType: '首个子参数的类型不可修改',
    cannotDeleteFirst: '请求体的首行不可删除',
    cannotDeleteOnlyChild: '唯一的子参数不可删除',
  },
  yes: '是',
  no: '否',
  empty: '暂无参数',
  errors: {
    typeRequired: '字段类型不能为空',
    typeNotAllowed: '此处不支持字段类型 {{type}}',
    keyRequired: '字段键不能为空',
    keyPattern: '字段键“{{key}}”只能包含英文字母、数字和下划线',
    headerTypeRequired: '类型不能为空',
    pathPlaceholder: 'URL 路径中没有字段“{{key}}”的 {…} 占位符',
    valueRequired: '值不能为空',
  },
};

export default param;
