import { badRequest } from './answer'
import type { Method } from './methods/call'
import { CHAT_METHODS } from './methods/chats'
import { MEDIA_METHODS } from './methods/media'
import { MESSAGE_METHODS } from './methods/messages'
import { UPDATE_METHODS } from './methods/updates'

export type { Call } from './methods/call'

/** The methods served, by their Bot API name (docs/bot-api.md), one file per area under methods/. */
export const METHODS: Readonly<Record<string, Method>> = {
	...CHAT_METHODS,
	...MESSAGE_METHODS,
	...MEDIA_METHODS,
	...UPDATE_METHODS,
}

/** Methods of the Bot API that only a bot has: answered 400, in words that say so. */
export const BOT_ONLY: ReadonlySet<string> = new Set([
	'answerCallbackQuery',
	'answerInlineQuery',
	'answerWebAppQuery',
	'answerShippingQuery',
	'answerPreCheckoutQuery',
	'setMyCommands',
	'getMyCommands',
	'deleteMyCommands',
	'setMyName',
	'getMyName',
	'setMyDescription',
	'getMyDescription',
	'setMyShortDescription',
	'getMyShortDescription',
	'setChatMenuButton',
	'getChatMenuButton',
	'setMyDefaultAdministratorRights',
	'getMyDefaultAdministratorRights',
	'sendInvoice',
	'createInvoiceLink',
	'sendGame',
	'setGameScore',
	'getGameHighScores',
	'logOut',
	'close',
	// Inline keyboards, payments, Passport, verification and a bot's business connections.
	'editMessageReplyMarkup',
	'getStarTransactions',
	'refundStarPayment',
	'editUserStarSubscription',
	'getMyStarBalance',
	'setPassportDataErrors',
	'savePreparedInlineMessage',
	'verifyUser',
	'verifyChat',
	'removeUserVerification',
	'removeChatVerification',
	'setUserEmojiStatus',
	'getUserChatBoosts',
	'getBusinessConnection',
	'readBusinessMessage',
	'deleteBusinessMessages',
	'setBusinessAccountName',
	'setBusinessAccountUsername',
	'setBusinessAccountBio',
	'setBusinessAccountProfilePhoto',
	'removeBusinessAccountProfilePhoto',
	'setBusinessAccountGiftSettings',
	'getBusinessAccountStarBalance',
	'transferBusinessAccountStars',
	'getBusinessAccountGifts',
])

export const botOnly = () => badRequest('the method is available only for bots')
