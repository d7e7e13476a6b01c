export interface Layer {
  name: string
  says: string
  folders: string[]
}
export declare const LAYERS: Layer[]
export declare function layerOf(pathInSrc: string): Layer | undefined
export declare function layersAbove(layer: Layer): Layer[]
