/** The image page's URL: the image, the pod whose pull secrets read it, and what of its tree is in view. */
export interface ImagesSearch {
  image?: string;
  /** With the root's `namespace`: the pod whose imagePullSecrets the agent uses. */
  pod?: string;
  /** Pull secrets of the namespace named outright, comma-separated, tried after the pod's. */
  pullSecrets?: string;
  platform?: string;
  /** The file shown in place. */
  path?: string;
  /** Text that narrows the tree to the entries whose path holds it. */
  q?: string;
  /** The tree's order: the largest entries first; by name when absent. */
  order?: 'size';
  /** The tree narrowed to what this layer (its index) last wrote. */
  layer?: number;
  /** The tab open; the filesystem when absent. */
  tab?: Exclude<ImageTab, 'files'>;
}

export const imageTabs = ['files', 'layers', 'config'] as const;
export type ImageTab = (typeof imageTabs)[number];
