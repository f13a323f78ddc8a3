import { Handle, type Node, type NodeProps, Position } from '@xyflow/react';
import { memo } from 'react';
import type { NodeStatus } from './run-status.ts';

export type FlowNodeData = { type: string; typeName: string; status?: NodeStatus; statusText?: string; faults: string[]; faultText?: string };
export type FlowNodeType = Node<FlowNodeData, 'workflow'>;

/** A mark beside the status word, so a status is told by more than its colour. */
const STATUS_MARK: Record<NodeStatus, string> = { running: '◌', succeeded: '✓', failed: '✕', interrupted: '⏸', reused: '↺' };

/**
 * One node on the canvas: its type's name (the API's type id in its tooltip), its id (what
 * references quote), how far the run on show got with it, and whether the server found fault with it.
 */
export const FlowNode = memo(function FlowNode({ id, data }: NodeProps<FlowNodeType>) {
  const classes = ['flow-node', data.status && `run-${data.status}`, data.faults.length > 0 && 'has-fault'].filter(Boolean).join(' ');
  return (
    <div className={classes}>
      <Handle type="target" position={Position.Left} />
      <div className="flow-node-name" title={data.type}>{data.typeName}</div>
      <div className="flow-node-id">{id}</div>
      {data.status && (
        <div className="flow-node-status">
          <span aria-hidden="true">{STATUS_MARK[data.status]}</span> {data.statusText}
        </div>
      )}
      {data.faultText && (
        <div className="flow-node-fault">
          <span aria-hidden="true">⚠</span> {data.faultText}
        </div>
      )}
      <Handle type="source" position={Position.Right} />
    </div>
  );
});
