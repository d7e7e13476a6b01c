import{AjvJsonSchemaValidator}from"./chunk-3YP47QY2.js";import"./chunk-A2EJQX32.js";export{AjvJsonSchemaValidator};
