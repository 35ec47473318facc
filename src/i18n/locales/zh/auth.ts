/** The `auth` namespace: sign-in, password change, personal profile. */
const auth = {
  login: {
    title: '登录',
    subtitle: '登录后即可构建和管理你的 AI 应用',
    tenant: '租户',
    tenantPlaceholder: '请选择租户',
    account: '账号',
    accountPlaceholder: '请输入账号',
    password: '密码',
    passwordPlaceholder: '请输入密码',
    showPassword: '显示密码',
    hidePassword: '隐藏密码',
    submit: '登录',
    version: '版本 {{version}}',
  },
  password: {
    title: '修改密码',
    description: '修改成功后所有设备上的登录都会失效，需要使用新密码重新登录。',
    old: '原密码',
    new: '新密码',
    confirm: '确认新密码',
    policy: '8 到 128 个字符，至少包含一个字母和一个数字',
    submit: '修改密码',
    changed: '密码已修改，请使用新密码重新登录',
  },
  validation: {
    passwordPolicy: '密码需为 8 到 128 个字符，且至少包含一个字母和一个数字',
    passwordMismatch: '两次输入的密码不一致',
    email: '请输入正确的邮箱地址',
    phone: '请输入正确的手机号码',
  },
  profile: {
    subtitle: '管理你的个人资料和登录密码',
    account: '账号',
    tenant: '租户',
    title: '个人资料',
    description: '昵称会显示在顶栏和成员列表中。',
    nickname: '昵称',
    realName: '真实姓名',
    email: '邮箱',
    phone: '手机号码',
    avatar: '头像地址',
    avatarHelp: '图片的网址，留空则显示姓名首字',
  },
};

export default auth;
