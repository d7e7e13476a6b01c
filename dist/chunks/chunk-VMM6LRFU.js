function joinMessages(messages){return messages.join(`

`)}function spoken(messages){return messages.length>1?{text:joinMessages(messages),messages:[...messages]}:{text:messages[0]??""}}function spokenOf(answer){let messages=answer?.messages;return Array.isArray(messages)?messages.every(m=>typeof m=="string")?spoken(messages):null:typeof answer?.text=="string"?{text:answer.text}:null}export{joinMessages,spoken,spokenOf};
