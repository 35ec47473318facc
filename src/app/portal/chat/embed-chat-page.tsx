/**
 * /portal/chat/:appId: the same chat without the portal's chrome, for an iframe (sign-in required:
 * the route's login guard). The page fills its frame; the conversation list is a drawer.
 */
import { useParams } from 'react-router';
import { DocumentTitle } from '../../shell/layouts';
import { useConversationParam } from './chat-page';
import { ChatView } from './chat-view';
import s from './chat.module.css';

export default function EmbeddedChatPage() {
  const { appId = '' } = useParams();
  const [conversationId, setConversation] = useConversationParam();
  return (
    <div className={s.embedRoot} data-testid="portal-embed">
      <DocumentTitle />
      <ChatView key={appId} appId={appId} conversationId={conversationId} onConversationChange={setConversation} embedded />
    </div>
  );
}
