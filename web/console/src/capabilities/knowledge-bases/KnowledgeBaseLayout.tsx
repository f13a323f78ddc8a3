import { Outlet } from 'react-router';
/** Placeholder: being built (issue #33). */
export default function KnowledgeBaseLayout() {
  return (<><h1>KnowledgeBaseLayout</h1><Outlet /></>);
}
