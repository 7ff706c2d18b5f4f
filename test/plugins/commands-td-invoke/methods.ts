/**
 * The allow-list the td_invoke tests run with (two denied methods among them, which stay refused):
 * the conformance judge (test/conformance/judge.ts) declares td_invoke's methods from it, so that its
 * coverage counts each allowed method the tests must make td_invoke send.
 */
export const TESTED_METHODS = 'getChat,getMe,getOption,sendMessage,setLogStream,deleteAccount'
